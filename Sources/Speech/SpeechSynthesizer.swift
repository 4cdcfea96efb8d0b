import CEspeakNG
import Foundation
import Synchronization

public enum SpeechError: Error, CustomStringConvertible, Equatable {
    case engineUnavailable
    case voiceMissing(String)
    case synthesisFailed(String)

    public var description: String {
        switch self {
        case .engineUnavailable:
            return "espeak-ng could not start (its data files are missing). Install it: apt-get install espeak-ng libespeak-ng1"
        case .voiceMissing(let voice):
            return "espeak-ng has no voice \"\(voice)\". Install the espeak-ng-data package (apt-get install espeak-ng-data)."
        case .synthesisFailed(let text):
            return "espeak-ng failed to synthesize \"\(text.prefix(40))\"."
        }
    }
}

/// espeak-ng, rendering into memory. espeak-ng keeps global state, so there is one instance,
/// initialised once, and syntheses run one at a time behind a lock.
public final class SpeechSynthesizer: Sendable {
    public static let shared = SpeechSynthesizer()

    /// espeak-ng's sample rate once it has started (0 before). The lock around it also guards
    /// espeak-ng's own global state: every call into espeak-ng is made holding it.
    private let engine = Mutex<Int32>(0)

    private init() {}

    /// Lock held.
    private func start(_ sampleRate: inout Int32) throws {
        if sampleRate > 0 { return }
        let rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, 0)
        guard rate > 0 else { throw SpeechError.engineUnavailable }
        espeak_SetSynthCallback { wav, count, events in
            guard let events, let box = events.pointee.user_data else { return 0 }
            let rendering = Unmanaged<Rendering>.fromOpaque(box).takeUnretainedValue()
            rendering.receive(wav, Int(count))
            return 0
        }
        sampleRate = rate
    }

    /// The names `render(_:voice:)` accepts for the installed voices: their language tags
    /// (en-us, es, fr-fr, ja, …), file names ("gmw/en-US") and display names.
    public func voiceNames() throws -> [String] {
        try engine.withLock { sampleRate in
            try start(&sampleRate)
            var names: [String] = []
            forEachVoice { identifier, name, languages in
                names += languages.map(\.tag)
                names.append(identifier)
                if let name { names.append(name) }
            }
            return names
        }
    }

    /// Calls `body` with each installed voice's file name, display name and language tags. The
    /// tags are packed as: priority byte, NUL-terminated tag, …, then a zero byte. Lock held.
    private func forEachVoice(_ body: (String, String?, [(priority: UInt8, tag: String)]) -> Void) {
        guard var cursor = espeak_ListVoices(nil) else { return }
        while let voice = cursor.pointee {
            cursor += 1
            guard let identifier = voice.pointee.identifier else { continue }
            var languages: [(priority: UInt8, tag: String)] = []
            if var entry = UnsafeRawPointer(voice.pointee.languages)?.assumingMemoryBound(to: UInt8.self) {
                while entry.pointee != 0 {
                    let tag = String(cString: entry + 1)
                    languages.append((entry.pointee, tag))
                    entry += 1 + tag.utf8.count + 1
                }
            }
            body(String(cString: identifier), voice.pointee.name.map { String(cString: $0) }, languages)
        }
    }

    /// Makes `voice` current. espeak-ng's own lookup matches voice names and file names
    /// ("roa/fr") but not every language tag ("fr-fr" is only listed as a language of the French
    /// voice), so a tag it does not find is looked up in the voices' language lists. Lock held.
    private func select(_ voice: String) throws {
        if espeak_SetVoiceByName(voice) == EE_OK { return }
        guard let file = voiceFile(forLanguage: voice),
              espeak_SetVoiceByName(file) == EE_OK else { throw SpeechError.voiceMissing(voice) }
    }

    /// The file name of the voice that lists `language` with the best (lowest) priority.
    private func voiceFile(forLanguage language: String) -> String? {
        let wanted = language.lowercased()
        var best: (priority: UInt8, file: String)?
        forEachVoice { identifier, _, languages in
            for entry in languages where entry.tag.lowercased() == wanted {
                if best == nil || entry.priority < best!.priority { best = (entry.priority, identifier) }
            }
        }
        return best?.file
    }

    /// Renders `text` with `voice` into one buffer.
    public func render(_ text: String, voice: String) throws -> PCMBuffer {
        try engine.withLock { sampleRate in
            try start(&sampleRate)
            try select(voice)
            let rendering = Rendering()
            let box = Unmanaged.passRetained(rendering)
            defer { box.release() }
            let status = text.withCString { cText in
                espeak_Synth(cText, strlen(cText) + 1, 0, POS_CHARACTER, 0,
                             UInt32(espeakCHARS_UTF8), nil, box.toOpaque())
            }
            guard status == EE_OK, espeak_Synchronize() == EE_OK else {
                throw SpeechError.synthesisFailed(text)
            }
            return PCMBuffer(sampleRate: Int(sampleRate), samples: rendering.samples)
        }
    }
}
