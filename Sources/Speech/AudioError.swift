import Foundation

/// Whether a device plays (a sink) or records (a source); error messages name it for people.
public enum AudioDeviceRole: String, Sendable, Equatable {
    case output
    case input

    var noun: String { self == .output ? "output" : "microphone" }
    var option: String { self == .output ? "--output" : "--input" }
    var listing: String { self == .output ? "pactl list short sinks" : "pactl list short sources" }
}

/// Failures of the audio streams. A dead, stalled, removed or vanished device is a failure of
/// the exchange, never the end of a question or an answer; every message says what to do.
public enum AudioError: Error, CustomStringConvertible, Equatable {
    /// No device of that name (or no default one) exists.
    case deviceNotFound(AudioDeviceRole, name: String?, available: [String])
    /// The watchdog: the microphone stream is open but delivered no audio for `seconds`.
    case microphoneSilent(device: String, seconds: Double)
    /// The device went away while the stream was open (unplugged, module unloaded).
    case deviceRemoved(AudioDeviceRole, name: String)
    /// The connection to the audio server was lost.
    case serverGone(String)
    /// The server refused or dropped the stream for another reason.
    case streamFailed(AudioDeviceRole, name: String?, reason: String)
    /// Playback did not finish long after the sound should have been over.
    case playbackStalled(device: String, seconds: Double)
    /// A second play or listen started while one was running on the same device (a bug in the
    /// caller: an exchange plays and listens one at a time).
    case busy(AudioDeviceRole)

    public var description: String {
        switch self {
        case .deviceNotFound(let role, let name, let available):
            let which = name.map { "no \(role.noun) named \"\($0)\"" } ?? "no default \(role.noun)"
            let choices = available.isEmpty ? "none is connected" : "available: \(available.joined(separator: ", "))"
            return "\(which) (\(choices)). Connect one, or choose one with \(role.option) NAME (\(role.listing)), or use --type to type your answers."
        case .microphoneSilent(let device, let seconds):
            return "the microphone \"\(device)\" delivered no audio for \(Self.format(seconds)) seconds. Check that it is connected, switched on and not held by another program, or choose another with --input NAME (pactl list short sources); --type lets you type instead."
        case .deviceRemoved(let role, let name):
            return "the \(role.noun) \"\(name)\" went away during the conversation. Reconnect it or choose another with \(role.option) NAME; what you said so far is kept."
        case .serverGone(let reason):
            return "the connection to the audio server was lost (\(reason)). Restart it (pulseaudio --start, or PipeWire's pipewire-pulse); what you said so far is kept."
        case .streamFailed(let role, let name, let reason):
            let which = name.map { " \"\($0)\"" } ?? ""
            return "the audio server could not use the \(role.noun)\(which): \(reason). Choose another with \(role.option) NAME (\(role.listing))."
        case .playbackStalled(let device, let seconds):
            return "the output \"\(device)\" stopped playing (nothing finished within \(Self.format(seconds)) seconds). Check the output device, or choose another with --output NAME."
        case .busy(let role):
            return "the \(role.noun) is already in use by this conversation (internal error: one \(role == .output ? "prompt" : "answer") at a time)."
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
    }
}
