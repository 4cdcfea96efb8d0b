import Foundation

/// A person a memo mentions, as the person said it: a span copied exactly from one sentence.
public struct PersonMention: Sendable, Hashable {
    /// The sentence it is in (`Source.id`).
    public let sentence: Int
    /// The span, titles and honorifics included ("Frau Müller", "田中さん").
    public let text: String
    /// Where the span stands in its sentence, in UTF-16 offsets.
    public let range: Range<Int>
}

/// Finds the people a memo mentions, by rule, from its language's `people` patterns: the
/// name-shaped spans of the sentences (capitalised words, kanji and katakana), each judged by
/// what stands around it. A title or honorific makes a person; then an article, a place word or
/// "to" after a verb of going makes a thing; then a weak cue (von, chez, a Romance de) makes a
/// thing for now; then a person's cue (a verb after it, a relation before it) makes a person, and so
/// does a capital inside the sentence where capitals mark names. Last, a word that names a
/// person once names that person wherever no cue (or only a weak one) said otherwise, and so
/// does a span joined to a person's name by "and". Nothing here writes a word: every mention is
/// a range of a sentence, and its text is that range's.
public struct PeopleFinder: @unchecked Sendable {
    let capitals: PeoplePatterns.Capitals
    /// A name-shaped span.
    let name: NSRegularExpression
    /// Group 1: titles, group 2: the name-shaped span after them; nil in a language without titles.
    let titled: NSRegularExpression?
    let part: NSRegularExpression
    /// Longest first, so "さま" is not read as "さ" + "ま" (or "先生" cut short).
    let honorifics: [String]
    /// Folded: words that are never a name (`notNames`, `roles`, titles, weekdays, months).
    let nonNames: Set<String>
    /// Folded `roles`.
    let roles: Set<String>
    /// A possessive that ends right before a span ("meine ").
    let possessive: NSRegularExpression?
    /// Folded: the language's common words (its phrase lists), not a name when they open a sentence.
    let common: Set<String>
    let placeWords: Set<String>
    let endings: [String]
    let possessiveEndings: [String]
    let joiner: NSRegularExpression
    let personCues: [Cue]
    let thingCues: [Cue]
    let weakThingCues: [Cue]
    /// Titles ending in a full stop ("Mr.", "Sra."): no sentence ends after one.
    public let abbreviations: [String]

    /// Finds nobody: a language without `people` patterns.
    public static let none = PeopleFinder()

    private init() {
        capitals = .none
        name = try! NSRegularExpression(pattern: "(?!)")
        (titled, part, joiner) = (nil, name, name)
        (honorifics, nonNames, roles, common, placeWords, endings, possessiveEndings) = ([], [], [], [], [], [], [])
        possessive = nil
        (personCues, thingCues, weakThingCues, abbreviations) = ([], [], [], [])
    }

    /// Compiles `patterns`; `calendarWords` (weekdays and months) and `commonWords` are words
    /// of the language that are no name. Throws the first pattern that is no regular expression.
    public init(_ patterns: PeoplePatterns, calendarWords: [String] = [], commonWords: [String] = []) throws(InvalidPattern) {
        func compile(_ key: String, _ pattern: String) throws(InvalidPattern) -> NSRegularExpression {
            do { return try NSRegularExpression(pattern: pattern) } catch { throw InvalidPattern(key: "people." + key, pattern: pattern) }
        }
        func alternatives(_ words: [String]) -> String {
            words.isEmpty ? "(?!)" : words.sorted { $0.count > $1.count }.map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|")
        }
        capitals = patterns.capitals
        name = try compile("name", patterns.name)
        titled = patterns.titles.isEmpty ? nil
            : try compile("titles", "((?:(?<![\\p{L}\\p{M}\\p{N}])(?:\(alternatives(patterns.titles)))\\s*)+)((?:\(patterns.name)))")
        part = try compile("part", patterns.part)
        joiner = try compile("joiner", patterns.joiner)
        let roles = "(?i:\(alternatives(patterns.roles)))", possessives = "(?i:\(alternatives(patterns.possessives)))"
        possessive = patterns.possessives.isEmpty ? nil : try compile("possessives", "(?<![\\p{L}\\p{M}])\(possessives)\\s+\\z")
        func cues(_ key: String, _ list: [String]) throws(InvalidPattern) -> [Cue] {
            var compiled: [Cue] = []
            for (index, cue) in list.enumerated() {
                let sides = cue.replacingOccurrences(of: "{role}", with: roles).replacingOccurrences(of: "{possessive}", with: possessives)
                    .components(separatedBy: "{name}")
                guard sides.count == 2 else { throw InvalidPattern(key: "people.\(key).\(index)", pattern: cue) }
                compiled.append(Cue(before: sides[0].isEmpty ? nil : try compile("\(key).\(index)", "(?:\(sides[0]))\\z"),
                                    after: sides[1].isEmpty ? nil : try compile("\(key).\(index)", sides[1])))
            }
            return compiled
        }
        personCues = try cues("personCues", patterns.personCues)
        thingCues = try cues("thingCues", patterns.thingCues)
        weakThingCues = try cues("weakThingCues", patterns.weakThingCues)
        honorifics = patterns.honorifics.sorted { $0.count > $1.count }
        nonNames = Set((patterns.notNames + patterns.roles + patterns.titles + calendarWords).map(Self.fold))
        self.roles = Set(patterns.roles.map(Self.fold))
        common = Set(commonWords.map(Self.fold))
        placeWords = Set(patterns.placeWords.map(Self.fold))
        endings = patterns.notNameEndings.map(Self.fold)
        possessiveEndings = patterns.possessiveEndings
        abbreviations = patterns.titles.filter { $0.hasSuffix(".") }
    }

    /// Lower case without accents, in one width: how names are compared ("Müller", "MULLER").
    public static func fold(_ word: String) -> String {
        word.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// Whether the words of `needle` stand as a run of whole words (ICU's) in `name`, folded:
    /// "müller" in "Frau Müller", "田中" in "田中さん", not "Tom" in "Tomatoes".
    public static func name(_ name: String, contains needle: String) -> Bool {
        let wanted = WordBreaks.words(in: fold(needle))
        let found = WordBreaks.words(in: fold(name))
        guard !wanted.isEmpty, found.count >= wanted.count else { return false }
        return (0...(found.count - wanted.count)).contains { Array(found[$0..<($0 + wanted.count)]) == wanted }
    }

    /// Every mention in `sources`, in order.
    public func mentions(in sources: [Source]) -> [PersonMention] {
        let texts = sources.map { $0.text as NSString }
        let lowerWords = Self.lowercaseWords(sources)
        var candidates: [Candidate] = []
        for (index, text) in texts.enumerated() {
            for var candidate in candidateSpans(in: text, sentence: index, lowerWords: lowerWords) {
                if candidate.verdict == .open {
                    if candidate.titled { candidate.verdict = .person }
                    else if thingCues.contains(where: { $0.holds(around: candidate.core, in: text) }) { candidate.verdict = .thing }
                    else if weakThingCues.contains(where: { $0.holds(around: candidate.core, in: text) }) {
                        (candidate.verdict, candidate.weak) = (.thing, true)
                    }
                    else if personCues.contains(where: { $0.holds(around: candidate.core, in: text) }) { candidate.verdict = .person }
                    else if !candidate.initial && (capitals == .names || (capitals == .nouns && candidate.parts.count > 1)) {
                        candidate.verdict = .person
                    }
                }
                candidates.append(candidate)
            }
        }
        spread(&candidates, texts: texts)
        return candidates.filter { $0.verdict == .person }.map { candidate in
            let range = NSRange(location: candidate.start, length: candidate.end - candidate.start)
            return PersonMention(sentence: sources[candidate.sentence].id, text: texts[candidate.sentence].substring(with: range),
                                 range: candidate.start..<candidate.end)
        }
    }

    /// The names of the people `sources` mention, each once: the first spelling of those equal
    /// after folding case and accents ("Tom", "tom"); others stay apart ("Jon", "John").
    public func names(in sources: [Source]) -> [String] {
        var seen: Set<String> = [], names: [String] = []
        for mention in mentions(in: sources) where seen.insert(Self.fold(mention.text)).inserted { names.append(mention.text) }
        return names
    }

    /// A cue split at its `{name}`: what must end right before a span, and what must start right
    /// after it.
    struct Cue {
        let before: NSRegularExpression?
        let after: NSRegularExpression?

        func holds(around core: NSRange, in text: NSString) -> Bool {
            let string = text as String
            if let before, before.firstMatch(in: string, range: NSRange(location: 0, length: core.location)) == nil { return false }
            if let after, after.firstMatch(in: string, options: [.anchored, .withTransparentBounds],
                                           range: NSRange(location: core.upperBound, length: text.length - core.upperBound)) == nil {
                return false
            }
            return true
        }
    }

    enum Verdict { case open, person, thing }

    /// A name-shaped span of one sentence and what is known of it. Offsets are UTF-16.
    struct Candidate {
        let sentence: Int
        /// Where the mention would start (its titles included) and end (its honorific included).
        var start: Int, end: Int
        /// The name itself, without titles, honorific or the words around it that are no name.
        var core: NSRange
        /// The core's parts, folded.
        var parts: [String]
        /// Whether the core starts its sentence (a capital there says nothing).
        var initial: Bool
        var titled: Bool
        var verdict: Verdict
        /// A thing only by a weak cue: the memo naming the person elsewhere makes it one.
        var weak = false
    }

    /// The name-shaped spans of `text`, trimmed of the words at their edges that are no name;
    /// those whose words name a place or a role are already things. A span after titles is found
    /// first, so that "Und Frau Dr. Hoffmann" gives "Frau Dr. Hoffmann" and not "Und Frau Dr".
    func candidateSpans(in text: NSString, sentence: Int, lowerWords: Set<String>) -> [Candidate] {
        let string = text as String, whole = NSRange(location: 0, length: text.length)
        let firstWord = text.rangeOfCharacter(from: .alphanumerics).location
        var spans: [(titles: NSRange?, parts: [NSRange])] = []
        let titledMatches = titled?.matches(in: string, range: whole) ?? []
        for match in titledMatches {
            var titles: NSRange? = match.range(at: 1)
            let name = part.matches(in: string, range: match.range(at: 2)).map(\.range)
            if let possessive, possessive.firstMatch(in: string, range: NSRange(location: 0, length: match.range.location)) != nil {
                // "meine Tante Hilde": the relation is no title, and "Hilde" alone is the name.
                let words = part.matches(in: string, range: titles!).map(\.range)
                let relation = words.prefix { roles.contains(Self.fold(text.substring(with: $0))) }
                if let last = relation.last {
                    titles = last.upperBound < words.last!.upperBound
                        ? NSRange(location: words[relation.count].location, length: titles!.upperBound - words[relation.count].location) : nil
                }
            }
            spans.append((titles, name))
        }
        let taken = titledMatches.map(\.range)
        for match in name.matches(in: string, range: whole) {
            var run: [NSRange] = []
            for piece in part.matches(in: string, range: match.range).map(\.range) {
                // A title's words are taken; a role inside a run parts two names ("Katrins Bruder Fabian").
                if taken.contains(where: { NSIntersectionRange($0, piece).length > 0 })
                    || roles.contains(Self.fold(text.substring(with: piece))) {
                    if !run.isEmpty { spans.append((nil, run)) }
                    run = []
                } else {
                    run.append(piece)
                }
            }
            if !run.isEmpty { spans.append((nil, run)) }
        }
        func isNoName(_ range: NSRange, initial: Bool) -> Bool {
            let word = Self.fold(text.substring(with: range))
            return nonNames.contains(word) || honorifics.contains(word) || (initial && (common.contains(word) || lowerWords.contains(word)))
        }
        var candidates: [Candidate] = []
        for (titles, found) in spans.sorted(by: { ($0.titles ?? $0.parts[0]).location < ($1.titles ?? $1.parts[0]).location }) {
            var parts = found
            guard var last = parts.last else { continue }
            var end = last.upperBound, honorific = false
            let lastText = text.substring(with: last), following = text.substring(from: last.upperBound)
            if let suffix = honorifics.first(where: { lastText.hasSuffix($0) && lastText.count > $0.count }) {
                last.length -= suffix.utf16.count
                parts[parts.count - 1] = last
                honorific = true
            } else if let suffix = honorifics.first(where: { following.hasPrefix($0) }) {
                end += suffix.utf16.count
                honorific = true
            } else if parts.count > 1, honorifics.contains(lastText) {
                // "スミス様", "キム先生": a kanji honorific is a part of its own after a katakana name.
                parts.removeLast()
                honorific = true
            }
            if titles == nil {
                while let first = parts.first, parts.count > 1 || !honorific, isNoName(first, initial: first.location == firstWord) {
                    parts.removeFirst()
                }
            }
            // The word after a title is a name whatever else it means ("Mme Petit", "Herr Mai").
            let named = titles == nil ? 0 : 1
            if !honorific { while let last = parts.last, parts.count > named, isNoName(last, initial: false) { parts.removeLast() } }
            guard let first = parts.first, let final = parts.last else { continue }
            let core = NSRange(location: first.location, length: final.upperBound - first.location)
            let words = parts.map { Self.fold(text.substring(with: $0)) }
            let isThing = words.indices.contains { index in
                let word = words[index]
                return (index >= named && nonNames.contains(word)) || placeWords.contains(word) || endings.contains { word.hasSuffix($0) }
            }
            let start = titles?.location ?? core.location
            // A span inside the last one's honorific ("田中さんくん") is no second name.
            if let previous = candidates.last, start < previous.end { continue }
            candidates.append(Candidate(sentence: sentence, start: start,
                                        end: honorific ? end : core.upperBound, core: core, parts: words,
                                        initial: core.location == firstWord, titled: titles != nil || honorific,
                                        verdict: isThing ? .thing : .open))
        }
        return candidates
    }

    /// Open spans, and things only by a weak cue, become people when they share a word with a
    /// person's name or are joined to one in a list, and a possessive's ending leaves a name
    /// ("Ninas Auto" when "Nina" is one), until nothing more changes.
    func spread(_ candidates: inout [Candidate], texts: [NSString]) {
        var changed = true
        while changed {
            changed = false
            let known = Set(candidates.filter { $0.verdict == .person }.flatMap(\.parts))
            for index in candidates.indices
            where (candidates[index].verdict != .thing || candidates[index].weak) && !candidates[index].titled {
                var candidate = candidates[index]
                let others = candidate.verdict == .person
                    ? Set(candidates.indices.filter { $0 != index && candidates[$0].verdict == .person }.flatMap { candidates[$0].parts })
                    : known
                if !possessiveEndings.isEmpty, let stem = possessiveStem(of: candidate, in: texts[candidate.sentence], known: others) {
                    candidate.core.length = stem.utf16.count
                    candidate.end = candidate.core.upperBound
                    candidate.parts = [Self.fold(stem)]
                    candidate.verdict = .person
                } else if candidate.verdict == .person {
                    continue
                } else if candidate.parts.contains(where: known.contains)
                            || candidates.contains(where: { $0.verdict == .person && isJoined($0, candidate, texts: texts) }) {
                    candidate.verdict = .person
                } else {
                    continue
                }
                candidates[index] = candidate
                changed = true
            }
        }
    }

    /// The first word of the candidate without a possessive ending, when that is a known name
    /// and the word itself is not ("Ninas" when "Nina" is).
    func possessiveStem(of candidate: Candidate, in text: NSString, known: Set<String>) -> String? {
        guard let first = part.firstMatch(in: text as String, range: candidate.core).map({ text.substring(with: $0.range) }),
              !known.contains(Self.fold(first)) else { return nil }
        for ending in possessiveEndings where first.hasSuffix(ending) && first.count > ending.count + 1 {
            let stem = String(first.dropLast(ending.count))
            if known.contains(Self.fold(stem)) { return stem }
        }
        return nil
    }

    /// Whether `a` and `b` stand in one sentence with only a joiner between them.
    func isJoined(_ a: Candidate, _ b: Candidate, texts: [NSString]) -> Bool {
        guard a.sentence == b.sentence else { return false }
        let (left, right) = a.start < b.start ? (a, b) : (b, a)
        guard left.end <= right.start else { return false }
        let between = texts[a.sentence].substring(with: NSRange(location: left.end, length: right.start - left.end))
        let range = NSRange(location: 0, length: (between as NSString).length)
        return joiner.firstMatch(in: between, options: [.anchored], range: range)?.range == range
    }

    /// The memo's words written in lower case (and so no names when capitalised at a sentence's
    /// start): "also" makes "Also, …" no name.
    static func lowercaseWords(_ sources: [Source]) -> Set<String> {
        var words: Set<String> = []
        for source in sources {
            for word in source.text.split(whereSeparator: { !$0.isLetter }) where word.first?.isLowercase == true {
                words.insert(fold(String(word)))
            }
        }
        return words
    }
}
