extension Duration {
    /// The duration in seconds, for timing figures reported as plain numbers.
    var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
