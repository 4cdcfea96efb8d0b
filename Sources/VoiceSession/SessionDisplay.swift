/// What a session shows the person. The command-line program's `Screen` draws it on a
/// terminal; tests record it. Every text passed in may hold user words: implementations make
/// it safe to show (`UserText.terminalLine`).
public protocol SessionDisplay: Sendable {
    /// A line of output (replacing any live status line).
    func line(_ text: String)
    func question(_ text: String, number: Int, total: Int)
    /// What the person said, quoted.
    func answer(_ text: String)
    func notice(_ text: String)
    func hint(_ text: String)
    func error(_ text: String)
    /// The live status line: a state word, a level in 0…1, the latest words heard.
    func status(_ state: String, level: Float?, partial: String?)
}

extension SessionDisplay {
    public func line() { line("") }
    public func status(_ state: String) { status(state, level: nil, partial: nil) }
}
