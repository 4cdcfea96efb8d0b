import Foundation
import Testing
@testable import DialogueCore

@Suite struct LocaleTests {
    /// Every locale file as raw JSON, to check what is written rather than what was merged.
    static func rawFiles() throws -> [Language: [String: Any]] {
        let folder = try Fixtures.loader.folder()
        var files: [Language: [String: Any]] = [:]
        for code in LanguagePackLoader.supportedLanguages {
            let data = try Data(contentsOf: folder.appendingPathComponent("\(code).json"))
            files[code] = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        return files
    }

    /// Dotted key paths of every string leaf in a JSON value (list elements get their index).
    static func leaves(_ value: Any, path: String = "") -> [String: String] {
        var result: [String: String] = [:]
        if let dictionary = value as? [String: Any] {
            for (key, child) in dictionary {
                result.merge(leaves(child, path: path.isEmpty ? key : "\(path).\(key)")) { $1 }
            }
        } else if let list = value as? [Any] {
            for (index, child) in list.enumerated() { result.merge(leaves(child, path: "\(path)[\(index)]")) { $1 } }
        } else if let string = value as? String {
            result[path] = string
        }
        return result
    }

    /// Key paths ignoring list contents (phrase lists differ in length per language).
    static func structuralKeys(_ value: Any, path: String = "") -> Set<String> {
        guard let dictionary = value as? [String: Any] else { return [path] }
        var keys = Set<String>()
        for (key, child) in dictionary {
            keys.formUnion(structuralKeys(child, path: path.isEmpty ? key : "\(path).\(key)"))
        }
        return keys
    }

    @Test func everyLocaleLoadsWithoutFallingBackToEnglish() throws {
        for code in LanguagePackLoader.supportedLanguages {
            let pack = try Fixtures.pack(code)
            #expect(pack.language == code)
            #expect(pack.keysFromEnglish.isEmpty, "\(code) lacks \(pack.keysFromEnglish)")
        }
    }

    @Test func everyKeyIsPresentInEveryLocale() throws {
        let files = try Self.rawFiles()
        let english = Self.structuralKeys(try #require(files["en"]))
            .subtracting(["opening.speech"]).filter { !$0.hasSuffix(".speech") }
        for (code, file) in files {
            let keys = Self.structuralKeys(file).filter { !$0.hasSuffix(".speech") }
            #expect(keys == english, "\(code): missing \(english.subtracting(keys).sorted()), extra \(keys.subtracting(english).sorted())")
        }
    }

    @Test func noStringIsEmptyAndNoListIsEmpty() throws {
        for (code, file) in try Self.rawFiles() {
            for (path, string) in Self.leaves(file) {
                #expect(!string.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(code): \(path) is empty")
            }
            let pack = try Fixtures.pack(code)
            let phrases = pack.phrases
            let lists: [Phrases.Name] = [.endings, .interruptions, .refusals, .fillers, .endingTails, .negatives,
                                         .hesitations, .productIdea, .meeting, .habitual, .reflection, .planning]
            for name in lists {
                #expect(phrases[name].count >= 5, "\(code): phrases.\(name.rawValue) has only \(phrases[name].count) entries")
            }
            for (angle, cues) in phrases.angleCues { #expect(!cues.isEmpty, "\(code): angleCues.\(angle) is empty") }
        }
    }

    @Test func placeholdersMatchAcrossLanguages() throws {
        let english = try Fixtures.pack("en")
        for code in LanguagePackLoader.supportedLanguages {
            let pack = try Fixtures.pack(code)
            for key in UIKey.allCases {
                let expected = Placeholders.names(in: english.ui[key.rawValue] ?? "")
                #expect(Placeholders.names(in: pack.ui[key.rawValue] ?? "") == expected, "\(code): ui.\(key.rawValue)")
            }
            #expect(Placeholders.names(in: pack.noteTitle) == ["date"], "\(code): noteTitle")
            let dateNames = Placeholders.names(in: pack.noteDate)
            #expect(!dateNames.isEmpty && dateNames.isSubset(of: ["year", "month", "day", "mm", "dd"]), "\(code): noteDate")
            let spoken = [pack.opening] + pack.questions.values + pack.closings.values
            for line in spoken {
                #expect(Placeholders.names(in: line.text).isEmpty && Placeholders.names(in: line.spoken).isEmpty)
            }
        }
    }

    @Test func everyCaseHasItsLine() throws {
        for code in LanguagePackLoader.supportedLanguages {
            let pack = try Fixtures.pack(code)
            #expect(Set(pack.questions.keys) == Set(QuestionChoice.questions), "\(code)")
            #expect(Set(pack.closings.keys) == Set(QuestionChoice.finals), "\(code)")
            // Questions are short spoken lines: one sentence each.
            for (choice, line) in pack.questions {
                let limit = code == "ja" ? 30 : 60
                #expect(line.text.count <= limit, "\(code).\(choice.rawValue) is long for speech: \(line.text)")
            }
        }
    }

    @Test func japaneseSpeechIsKanaOnly() throws {
        let pack = try Fixtures.pack("ja")
        let spoken = [("opening", pack.opening)]
            + pack.questions.map { ($0.key.rawValue, $0.value) }
            + pack.closings.map { ($0.key.rawValue, $0.value) }
            + pack.demoAnswers.enumerated().map { ("demo.answers[\($0.offset)]", $0.element) }
            + pack.demo.byQuestion.map { ("demo.byQuestion.\($0.key.rawValue)", $0.value) }
        #expect(!pack.demoAnswers.isEmpty)
        for (name, line) in spoken {
            let speech = try #require(line.speech, "ja \(name) has no speech form")
            let ideographs = speech.unicodeScalars.filter { scalar in
                scalar.properties.isIdeographic || (0x3005...0x3007).contains(scalar.value)
            }
            #expect(ideographs.isEmpty, "ja \(name) speech contains \(String(String.UnicodeScalarView(ideographs)))")
            // を is only ever a particle, which espeak-ng must read as お.
            #expect(!speech.contains("を"), "ja \(name) speech writes the particle を")
            #expect(speech.unicodeScalars.contains { (0x3041...0x30FF).contains($0.value) })
        }
    }

    /// The demo's synthetic person: an opening idea, follow-ups, and an ending phrase last. The
    /// written forms are checked here; `EndToEndTests` checks them after espeak-ng and whisper.
    @Test func demoAnswersEndWithAnEndingAndOnlyThere() throws {
        for code in LanguagePackLoader.supportedLanguages {
            let pack = try Fixtures.pack(code)
            let rules = try Fixtures.rules(code)
            let answers = pack.demoAnswers
            #expect(answers.count >= 3, "\(code): only \(answers.count) demo answers")
            guard let last = answers.last else { continue }
            #expect(rules.endSignal(in: last.text) == .ending, "\(code): \(last.text)")
            for answer in answers.dropLast() {
                #expect(rules.endSignal(in: answer.text) == nil, "\(code): \(answer.text)")
                #expect(rules.endSignal(in: answer.text, answering: .choice(.moreDetails)) == nil, "\(code): \(answer.text)")
                #expect(!rules.isHesitant(answer.text), "\(code): \(answer.text)")
            }
        }
    }

    /// The demo's person answers the question asked: every question a product idea can be
    /// asked has its answer in every language (the meeting questions stay closed for it), and
    /// none of them ends the exchange or hesitates.
    @Test func everyQuestionTheDemoCanBeAskedHasItsOwnAnswer() throws {
        let meetingOnly: Set<QuestionChoice> = [.decision, .meetingFocus]
        for code in LanguagePackLoader.supportedLanguages {
            let pack = try Fixtures.pack(code)
            let rules = try Fixtures.rules(code)
            #expect(Set(pack.demo.byQuestion.keys) == Set(QuestionChoice.questions).subtracting(meetingOnly), "\(code)")
            for (question, answer) in pack.demo.byQuestion {
                #expect(rules.endSignal(in: answer.text, answering: .choice(question)) == nil, "\(code) \(question): \(answer.text)")
                #expect(!rules.isHesitant(answer.text), "\(code) \(question): \(answer.text)")
            }
        }
    }

    @Test func uiKeysMatchTheEnglishFile() throws {
        let english = try #require(try Self.rawFiles()["en"]?["ui"] as? [String: Any])
        #expect(Set(english.keys) == Set(UIKey.allCases.map(\.rawValue)))
    }

    @Test func promptLettersAreSingleAndDistinct() throws {
        for code in LanguagePackLoader.supportedLanguages {
            let pack = try Fixtures.pack(code)
            let letters = [UIKey.keySave, .keyEdit, .keyDiscard].map { pack.ui($0) }
            #expect(letters.allSatisfy { $0.count == 1 } && Set(letters).count == 3, "\(code)")
            for letter in letters { #expect(pack.ui(.savePrompt).lowercased().contains("[\(letter)"), "\(code) savePrompt shows [\(letter)") }
            #expect(pack.ui(.confirmDiscard).lowercased().contains("[\(pack.ui(.keyYes))/\(pack.ui(.keyNo))]"), "\(code)")
        }
    }

    @Test func genericTitleCarriesTheDate() throws {
        let date = Date(timeIntervalSince1970: 1_764_433_543)  // 2025-11-29 16:25:43 UTC
        let utc = TimeZone(secondsFromGMT: 0)!
        #expect(try Fixtures.pack("en").genericTitle(created: date, timeZone: utc) == "Memo from 2025-11-29")
        #expect(try Fixtures.pack("ja").genericTitle(created: date, timeZone: utc) == "2025年11月29日のメモ")
        #expect(try Fixtures.pack("de").genericTitle(created: date, timeZone: utc) == "Notiz vom 29.11.2025")
        #expect(try Fixtures.pack("fr").genericTitle(created: date, timeZone: utc) == "Note du 29/11/2025")
        #expect(try Fixtures.pack("es").genericTitle(created: date, timeZone: utc) == "Nota del 29/11/2025")
    }

    @Test func placeholdersFill() {
        #expect(Placeholders.fill("Saved to {path}", ["path": "/tmp/x"]) == "Saved to /tmp/x")
        #expect(Placeholders.fill("{a} and {b}", ["a": "1"]) == "1 and {b}")
        #expect(Placeholders.fill("{ not a name } {", [:]) == "{ not a name } {")
    }
}

@Suite struct LoaderTests {
    func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("locales-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func copyEnglish(to folder: URL) throws {
        let english = try Fixtures.loader.folder().appendingPathComponent("en.json")
        try FileManager.default.copyItem(at: english, to: folder.appendingPathComponent("en.json"))
    }

    @Test func searchOrderPutsTheEnvironmentFirstAndTheSourceTreeLast() {
        let loader = LanguagePackLoader(environment: ["DIALOGUE_MEMO_LOCALES": "/custom"],
                                        executableURL: URL(fileURLWithPath: "/opt/dm/bin/dialogue-memo"))
        let paths = loader.searchFolders.map(\.path)
        #expect(paths.count == 4)
        #expect(paths[0] == "/custom")
        #expect(paths[1] == "/opt/dm/share/dialogue-memo/Locales")
        #expect(paths[2] == "/opt/dm/bin/Locales")
        #expect(paths[3].hasSuffix("/Locales"))
    }

    @Test func theSourceTreeIsFoundFromFilePath() throws {
        let folder = try #require(LanguagePackLoader.sourceTreeLocales())
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("en.json").path))
    }

    @Test func environmentFolderWins() throws {
        let folder = try temporaryFolder()
        try copyEnglish(to: folder)
        let loader = LanguagePackLoader(environment: ["DIALOGUE_MEMO_LOCALES": folder.path], executableURL: nil)
        #expect(try loader.folder().resolvingSymlinksInPath().path == folder.resolvingSymlinksInPath().path)
    }

    @Test func missingFolderExplainsWhereItLooked() {
        let loader = LanguagePackLoader(searchFolders: [URL(fileURLWithPath: "/nonexistent/Locales")])
        #expect(throws: LanguagePackError.folderNotFound(searched: ["/nonexistent/Locales"])) { try loader.load("en") }
        let message = LanguagePackError.folderNotFound(searched: ["/nonexistent/Locales"]).description
        #expect(message.contains("/nonexistent/Locales") && message.contains("DIALOGUE_MEMO_LOCALES"))
    }

    @Test func malformedFileNamesFileReasonAndFix() throws {
        let folder = try temporaryFolder()
        try copyEnglish(to: folder)
        try Data("{ \"questions\": { \"problem\": ".utf8).write(to: folder.appendingPathComponent("fr.json"))
        let loader = LanguagePackLoader(searchFolders: [folder])
        do {
            _ = try loader.load("fr")
            Issue.record("a malformed file loaded")
        } catch {
            guard case .malformed(let file, _) = error else { Issue.record("unexpected \(error)"); return }
            #expect(file.hasSuffix("fr.json"))
            #expect(error.description.contains("fr.json") && error.description.contains("Fix:"))
        }
    }

    @Test func wrongTypeIsMalformed() throws {
        let folder = try temporaryFolder()
        try copyEnglish(to: folder)
        try Data("{ \"questions\": { \"problem\": 3 } }".utf8).write(to: folder.appendingPathComponent("de.json"))
        let loader = LanguagePackLoader(searchFolders: [folder])
        #expect(throws: LanguagePackError.self) { try loader.load("de") }
    }

    @Test func misspelledCaseIsMalformed() throws {
        let folder = try temporaryFolder()
        try copyEnglish(to: folder)
        try Data("{ \"questions\": { \"problme\": { \"text\": \"?\" } } }".utf8).write(to: folder.appendingPathComponent("es.json"))
        let loader = LanguagePackLoader(searchFolders: [folder])
        do {
            _ = try loader.load("es")
            Issue.record("a misspelled case loaded")
        } catch {
            #expect(error.description.contains("questions.problme"))
        }
    }

    /// A language is its file: without `ja.json` there is no Japanese; one that cannot be read
    /// (here a folder by that name) is unreadable.
    @Test func missingFileIsNoLanguageAndAnUnreadableOneSaysSo() throws {
        let folder = try temporaryFolder()
        try copyEnglish(to: folder)
        let loader = LanguagePackLoader(searchFolders: [folder])
        #expect(throws: LanguagePackError.unsupported("ja")) { try loader.load("ja") }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("ja.json"), withIntermediateDirectories: false)
        do {
            _ = try loader.load("ja")
            Issue.record("a folder loaded as a language file")
        } catch {
            guard case .unreadable(let file, _) = error else { Issue.record("unexpected \(error)"); return }
            #expect(file.hasSuffix("ja.json"))
        }
    }

    @Test func missingKeysComeFromEnglish() throws {
        let folder = try temporaryFolder()
        try copyEnglish(to: folder)
        let partial = #"{ "language": "de", "questions": { "problem": { "text": "Welches Problem löst das?" } }, "ui": { "saved": "Gespeichert unter {path}" } }"#
        try Data(partial.utf8).write(to: folder.appendingPathComponent("de.json"))
        let pack = try LanguagePackLoader(searchFolders: [folder]).load("de")
        #expect(pack.line(for: .problem).text == "Welches Problem löst das?")
        #expect(pack.line(for: .audience).text == "Who is it for?")
        #expect(pack.ui(.saved, ["path": "x"]) == "Gespeichert unter x")
        #expect(pack.ui(.discarded) == "Note discarded.")
        #expect(pack.keysFromEnglish.contains("questions.audience"))
        #expect(!pack.phrases[.endings].isEmpty)
    }

    @Test func theLanguagesAreTheFilesNamedByACode() throws {
        let folder = try temporaryFolder()
        try copyEnglish(to: folder)
        for name in ["fr.json", "ending-probe.json", "EN.json", "notes.txt"] {
            try Data("{}".utf8).write(to: folder.appendingPathComponent(name))
        }
        let loader = LanguagePackLoader(searchFolders: [folder])
        #expect(loader.languages() == ["en", "fr"])
        #expect(throws: LanguagePackError.unsupported("ending-probe")) { try loader.load("ending-probe") }
        #expect(LanguagePackLoader(searchFolders: [URL(fileURLWithPath: "/nonexistent")]).languages() == ["en"])
    }

    /// What loading `it.json` with these contents (beside English) throws.
    func italianError(_ json: Data) throws -> (LanguagePackError?, path: String) {
        let folder = try temporaryFolder()
        try copyEnglish(to: folder)
        let url = folder.appendingPathComponent("it.json")
        try json.write(to: url)
        do { _ = try LanguagePackLoader(searchFolders: [folder]).load("it") } catch { return (error, url.path) }
        return (nil, url.path)
    }

    @Test func misspelledPhraseListIsMalformed() throws {
        let (error, path) = try italianError(Data(#"{ "phrases": { "endigns": ["basta"] } }"#.utf8))
        #expect(error == .malformed(file: path, reason: "unknown keys phrases.endigns"))
    }

    @Test func aPatternThatIsNoRegularExpressionNamesFileAndKey() throws {
        let english = try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.loader.folder().appendingPathComponent("en.json")))
        var dates = try #require((english as? [String: Any])?["dates"] as? [String: Any])
        dates["weekend"] = ["(fine settimana"]
        let (error, path) = try italianError(JSONSerialization.data(withJSONObject: ["dates": dates]))
        #expect(error == .malformed(file: path, reason: "dates.weekend.0 is not a regular expression: (fine settimana"))
    }

    /// Patterns come from English like any key; the turn threshold shift, a calibration on the
    /// language's own speech, never does.
    @Test func patternsComeFromEnglishButNotTheTurnThresholdShift() throws {
        let folder = try temporaryFolder()
        try copyEnglish(to: folder)
        try Data(#"{ "language": "it" }"#.utf8).write(to: folder.appendingPathComponent("it.json"))
        let pack = try LanguagePackLoader(searchFolders: [folder]).load("it")
        #expect(pack.keysFromEnglish.contains("dates") && pack.keysFromEnglish.contains("actionCues"))
        #expect(pack.actionCues.score("I'll call her.") == 1)
        #expect(try Fixtures.pack("en").turnThresholdShift == 0.1)
        #expect(pack.turnThresholdShift == 0 && !pack.keysFromEnglish.contains("turnThresholdShift"))
        #expect(pack.voiceSample == "a" && pack.keysFromEnglish.contains("voiceSample"))
    }

    @Test func unsupportedLanguageIsRefused() {
        #expect(throws: LanguagePackError.unsupported("it")) { try Fixtures.loader.load("it") }
    }

    @Test func localeIdentifiersMapToSupportedLanguages() {
        #expect(LanguagePackLoader.language(forLocale: "ja_JP.UTF-8") == "ja")
        #expect(LanguagePackLoader.language(forLocale: "fr-CA") == "fr")
        #expect(LanguagePackLoader.language(forLocale: "DE") == "de")
        #expect(LanguagePackLoader.language(forLocale: "it_IT") == nil)
        #expect(LanguagePackLoader.language(forLocale: "C") == nil)
    }
}
