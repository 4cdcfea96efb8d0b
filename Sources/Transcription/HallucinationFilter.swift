import Foundation

/// whisper invents text for audio without speech: stock phrases from its training subtitles
/// ("Thank you for watching", "ご視聴ありがとうございました") and loops of one token. A cancelled or
/// silent answer must never become words, so segments are checked against the audio they cover.
public struct HallucinationFilter: Sendable {
    /// A segment whisper itself thinks is not speech. whisper.cpp 1.8.5 reads this probability
    /// from a logits row it did not compute (the previous call's), so the rule seldom fires;
    /// the energy checks carry the filter.
    public var noSpeechThreshold: Float = 0.6
    /// RMS below which a stretch of audio counts as quiet (about -45 dBFS).
    public var quietLevel: Float = 0.0056
    /// The same word this many times in a row is a decoding loop, not speech.
    public var maxRepeats = 4
    /// A stock phrase decoded less surely than this (mean token log-probability; whisper-cli's
    /// fallback threshold) is whisper inventing it over loud noise: on the real-speech set a
    /// keyboard gave "Thanks for watching." at -1.23; the dev part's speech read -0.72 or surer.
    public var stockPhraseLogProbability: Float = -1.0
    /// A transcription none of whose segments reach this, over audio without `sustainedSound`,
    /// is noise read as words: a keyboard gave "I'm gonna use the same method as the other
    /// one." at -2.1 (-1.9 with timestamp tokens). Real speech read -0.56 or surer (-1.07 for
    /// the start of a sentence at a pause), but espeak-ng's answers as low as -2.0 (garbled, in
    /// either mode): log-probability alone cannot tell them from noise, hence the sound.
    public var unsureLogProbability: Float = -1.5
    /// Seconds of sound without a break (`AudioLevel.longestSound`) that a voice holds and a
    /// keyboard does not: every real-speech clip held 0.66 s or longer, every espeak-ng answer
    /// 0.40 s or longer (those below -1.2, 0.48 s), the set's keyboards 0.18 s.
    public var sustainedSound = 0.3

    public init() {}

    /// Subtitle credits whisper produces from silence, normalized (lowercase, letters only).
    static let silencePhrases: Set<String> = [
        "thank you for watching", "thanks for watching", "thank you", "thank you so much for watching",
        "please subscribe", "subscribe to my channel", "bye", "you",
        "ご視聴ありがとうございました", "ご清聴ありがとうございました", "ありがとうございました", "おやすみなさい",
        "gracias por ver", "gracias por ver el video", "subtítulos realizados por la comunidad de amaraorg", "gracias",
        "merci davoir regardé", "merci davoir regardé cette vidéo", "soustitrage stfr", "soustitres réalisés par la communauté damaraorg", "merci",
        "vielen dank fürs zuschauen", "danke fürs zuschauen", "untertitel im auftrag des zdf", "untertitel der amaraorg community", "danke",
        "thank you very much", "thanks for listening", "see you next time", "ご視聴ありがとうございます",
    ]

    /// How subtitle credits begin ("Untertitel von …", "Sous-titres par …"); the rest varies.
    static let creditOpenings = ["untertitel", "soustitre", "subtítulos", "subtitles by", "transcription by"]

    /// One of whisper's stock inventions: a credit or sign-off from its training subtitles.
    static func isStockPhrase(_ text: String) -> Bool {
        let key = normalized(text)
        return silencePhrases.contains(key) || creditOpenings.contains { key.hasPrefix($0) }
    }

    /// The segments worth keeping from a transcription of `samples` (16 kHz mono).
    public func filter(_ segments: [TranscriptSegment], samples: [Float], sampleRate: Int = 16_000) -> [TranscriptSegment] {
        var kept: [TranscriptSegment] = []
        for var segment in segments {
            segment.text = Self.collapsingRepeatedPhrases(segment.text)
            let text = segment.text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { continue }
            let quiet = isQuiet(segment, samples: samples, sampleRate: sampleRate)
            if segment.noSpeechProbability > noSpeechThreshold && quiet { continue }
            let stock = Self.isStockPhrase(text)
            if quiet && stock { continue }
            if stock && segment.averageLogProbability < stockPhraseLogProbability { continue }
            if isLoop(text) { continue }
            // A whole segment again, word for word, right after itself: whisper's segment-level
            // loop (measured on a 4 s Japanese answer: the same sentence four times).
            if let previous = kept.last, Self.normalized(previous.text) == Self.normalized(text),
               !Self.normalized(text).isEmpty { continue }
            kept.append(segment)
        }
        // whisper.cpp's own no-speech measure is unreliable (see `noSpeechThreshold`), so the
        // decoding's certainty stands in for it, as a whole (one unsure line among sure ones
        // is a person mumbling and stays), with the sound: unsure words over a held sound are
        // a voice whisper hears poorly, and a wrong drop would lose them.
        if kept.allSatisfy({ $0.averageLogProbability < unsureLogProbability }),
           AudioLevel.longestSound(samples, sampleRate: sampleRate, threshold: quietLevel) < sustainedSound { return [] }
        return kept
    }

    func isQuiet(_ segment: TranscriptSegment, samples: [Float], sampleRate: Int) -> Bool {
        let from = max(0, min(samples.count, Int(segment.start * Double(sampleRate))))
        let to = max(from, min(samples.count, Int(segment.end * Double(sampleRate))))
        let span = to > from ? samples[from..<to] : samples[...]
        return !AudioLevel.containsSpeechEnergy(Array(span), sampleRate: sampleRate, threshold: quietLevel)
    }

    /// "you you you you you", "1,2,1,2,1,2,1,2,1,2" or "ははははは": one unit (one or two
    /// words, or a few characters) repeated past `maxRepeats`, and little else. (A French clip
    /// about a bathyscaphe "UB2006" came back from the live reading as "2,6,1,2,1,2,…"; with the
    /// loop gone, the answer is read again carefully.)
    func isLoop(_ text: String) -> Bool {
        let words = text.lowercased().split { $0.isWhitespace || $0.isPunctuation }
        for unit in 1...2 where words.count > maxRepeats * unit {
            // The longest stretch of words that repeats with period `unit` (a two-word unit of
            // two different words: one word twice is the one-word case).
            var stretch = 0, longest = 0
            for index in unit..<words.count {
                let periodic = words[index] == words[index - unit] && (unit == 1 || words[index] != words[index - 1])
                stretch = periodic ? stretch + 1 : 0
                longest = max(longest, stretch)
            }
            let covered = longest + unit
            if covered / unit > maxRepeats && covered * 2 >= words.count { return true }
        }
        // Scripts without spaces: one short unit (1–3 characters) repeated.
        let letters = Array(text.filter { !$0.isWhitespace && !$0.isPunctuation })
        for unit in 1...3 where letters.count >= unit * (maxRepeats + 2) {
            let pattern = letters.prefix(unit)
            if stride(from: 0, to: letters.count - unit + 1, by: unit).allSatisfy({ letters[$0..<($0 + unit)].elementsEqual(pattern) }) {
                return true
            }
        }
        return false
    }

    /// "es ist sehr schön, es ist sehr schön, es ist sehr schön, …": a phrase of 2 to
    /// `longestLoopWords` words three times or more in a row is whisper looping (measured on a
    /// 10 s German answer, an 11-word English sentence seventeen times without timestamp tokens,
    /// and an 18-word one three times in a real voice's answer); it is kept once.
    /// Single words are `isLoop`'s (people do say "no, no, no"). Japanese has no spaces, so a
    /// looped sentence there is one "word": `collapsingRepeatedRuns` handles it.
    static func collapsingRepeatedPhrases(_ text: String) -> String {
        let spaced = collapsingRepeatedWords(text)
        guard spaced.contains(where: { !$0.isASCII }) else { return spaced }
        // Split at every space and joined again the same way: unchanged chunks give back `spaced`.
        return spaced.split(separator: " ", omittingEmptySubsequences: false)
            .map { collapsingRepeatedRuns(String($0)) }.joined(separator: " ")
    }

    /// "母ら、被災を見せ…母ら、被災を見せ…母ら、被災を見せ…" (one Japanese answer of the demo,
    /// a sentence of about 30 characters many times over, in a CI run): a run of 4 characters
    /// or more, at least 3 of them different, three times or more in a row, is kept once.
    /// "どんどんどん" or "hahahaha" (a unit of 2 letters) stay: people say them.
    static func collapsingRepeatedRuns(_ text: String) -> String {
        var characters = Array(text), collapsed = false
        while let repeats = firstRepeats(in: characters, lengths: 4...max(4, characters.count / 3), distinct: 3) {
            characters.removeSubrange(repeats)
            collapsed = true
        }
        return collapsed ? String(characters) : text
    }

    /// The phrase collapse over words split at spaces. One word over and over is `isLoop`'s.
    static func collapsingRepeatedWords(_ text: String) -> String {
        var words = text.split(whereSeparator: \.isWhitespace).map(String.init), collapsed = false
        while let repeats = firstRepeats(in: words.map(normalized), lengths: 2...longestLoopWords, distinct: 2) {
            words.removeSubrange(repeats)
            collapsed = true
        }
        return collapsed ? words.joined(separator: " ") : text
    }

    /// The copies after the first of the shortest, earliest unit (of `lengths` items, at least
    /// `distinct` of them different) that `items` hold three times or more in a row.
    static func firstRepeats<Item: Hashable>(in items: [Item], lengths: ClosedRange<Int>, distinct: Int) -> Range<Int>? {
        for length in lengths where items.count >= 3 * length {
            for start in 0...(items.count - 3 * length) {
                let unit = items[start..<(start + length)]
                guard Set(unit).count >= distinct else { continue }
                var times = 1
                while start + (times + 1) * length <= items.count,
                      items[(start + times * length)..<(start + (times + 1) * length)].elementsEqual(unit) {
                    times += 1
                }
                if times >= 3 { return (start + length)..<(start + times * length) }
            }
        }
        return nil
    }

    /// The longest unit `endsInLoop` looks for, in tokens. A Japanese sentence of 30 characters
    /// is more than 24 tokens (the former bound, which let the demo's loop run to the cap).
    public static let longestLoopTokens = 48

    /// Whether the tokens whisper has decoded so far end in a loop: the same phrase of
    /// `shortUnitTokens` to `longestLoopTokens` tokens three times in a row, a shorter unit six
    /// times, or one token eight times. The transcriber then makes whisper end the segment,
    /// instead of looping up to the token cap (3.9 s for that German answer). Without timestamp
    /// tokens that ends the whole transcript, so what people do repeat must pass: "words,
    /// words, words" (a 2-token unit three times) had cut a real monologue's last eight words.
    /// It runs at every decoding step of every beam, so it compares in place instead of copying
    /// each candidate unit.
    public static func endsInLoop(_ tokens: [Int32]) -> Bool {
        let count = tokens.count
        guard let last = tokens.last else { return false }
        if count >= 8, tokens[(count - 8)...].allSatisfy({ $0 == last }) { return true }
        for length in 2...longestLoopTokens {
            let times = length < shortUnitTokens ? 6 : 3
            guard count >= times * length else { continue }
            // The last `times * length` tokens repeat with period `length`. (A unit of one token
            // over and over makes at least 12 in a row: the 8-times rule holds already.)
            let start = count - times * length
            if (start..<(count - length)).allSatisfy({ tokens[$0] == tokens[$0 + length] }) { return true }
        }
        return false
    }

    /// The longest phrase `collapsingRepeatedWords` looks for: a sentence as long as the
    /// longest token loop (`longestLoopTokens`) can hold.
    static let longestLoopWords = 40

    /// Units shorter than this (a word and its comma, "no, no") are repeated by people too.
    static let shortUnitTokens = 6

    static func normalized(_ text: String) -> String {
        let folded = text.lowercased().folding(options: [.widthInsensitive], locale: nil)
        return String(folded.unicodeScalars.filter { CharacterSet.letters.contains($0) || $0 == " " }.map(Character.init))
            .split(separator: " ").joined(separator: " ")
    }
}
