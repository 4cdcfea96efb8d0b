extension Duration {
    /// The duration in seconds: the one conversion the program and its evaluation share.
    public var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
