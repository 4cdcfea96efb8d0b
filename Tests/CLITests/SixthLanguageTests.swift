import Foundation
import Testing

/// A language is one data file: with an Italian pack beside the real ones (its questions and UI
/// strings, every phrase list present and empty), the built program talks Italian, with no Swift
/// change. Another JSON file in the folder is not taken for a language.
@Suite("a sixth language from its file alone (real binary)", .serialized)
struct SixthLanguageTests {
    static let opening = "Quale idea vuoi annotare?"
    static let questions = [
        "audience": "Per chi è?", "ideaDetails": "Come funzionerebbe?", "useCase": "Quando la userebbe qualcuno?",
        "problem": "Quale problema risolve?", "reason": "Perché è importante per te?", "example": "Puoi fare un esempio?",
        "obstacle": "Che cosa potrebbe essere d'ostacolo?", "preparation": "Che cosa devi preparare?",
        "takeaway": "Che cosa vuoi ricordare di questo?", "validation": "Come potresti provarla per prima cosa?",
        "keyPoint": "Qual è il punto più importante?", "impression": "Che cosa ti è rimasto impresso?",
        "decision": "Che cosa bisogna decidere?", "meetingFocus": "Su che cosa dovrebbe concentrarsi la riunione?",
        "purpose": "Che cosa vuoi ottenere?", "nextStep": "Qual è il prossimo passo?",
        "startingPoint": "Da dove cominceresti?", "moreDetails": "C'è altro che vuoi aggiungere?",
    ]
    static let ui = [
        "hintFinish": "Di’ «è tutto» o premi un tasto per finire.", "listening": "Ascolto…", "hearingYou": "Ti sento…",
        "thinking": "Ci penso…", "noAnswer": "Nessuna risposta sentita.", "wentOn": "Continua, la domanda può aspettare.",
        "notCaught": "Non ho capito. Ancora una volta:", "youSaid": "Hai detto:",
        "typePrompt": "Scrivi la tua risposta (riga vuota per finire):",
        "typingModeReason": "La voce non è disponibile: {reason}. Puoi scrivere le risposte.",
        "modelUnavailable": "Il modello linguistico non è disponibile ({reason}); le domande seguono le regole integrate.",
        "unsupportedLocale": "La lingua «{locale}» non è ancora supportata; uso l’inglese.",
        "noteReady": "La tua nota:", "savePrompt": "[s]alva, [m]odifica ancora o [e]limina?",
        "confirmDiscard": "Eliminare questa nota? Le tue parole andranno perse. [s/N]", "saved": "Salvata in {path}",
        "discarded": "Nota eliminata.", "recoverPrompt": "Trovato un promemoria incompiuto del {date}: aprirlo? [S/n]",
        "microphoneSilent": "Il microfono «{device}» non ha dato audio per {seconds} secondi. Controlla che sia collegato e non silenziato, o scegline un altro con --input.",
        "audioFailed": "L’audio ha smesso di funzionare ({reason}). Le tue parole finora sono conservate.",
        "saveFailed": "Impossibile salvare la nota in {path}: {reason}. È conservata in {journal}; esegui «dialogue-memo recover» per salvarla più tardi.",
        "interrupted": "Interrotto. Le tue parole finora sono conservate.", "questionCount": "Domanda {number} di {total}",
        "transcriptFull": "Un promemoria non contiene di più. Le tue parole sono conservate; puoi aggiungere altro nell’editor.",
        "layoutFallback": "Non è stato possibile raggruppare le frasi, quindi ognuna è un punto a sé. Non manca nulla.",
        "recordingHint": "Registrazione in corso. Fai una pausa o premi un tasto per fermare.",
        "transcribingRecording": "Trascrizione di {seconds} s di audio…", "nothingRecorded": "Non si è sentito nulla, quindi nessuna nota.",
        "audioKept": "La registrazione è conservata accanto: {path}",
        "reviewKeys": "Premi {save} per salvare, {edit} per modificare ancora o {discard} per eliminare.",
        "keptForRecover": "Non ancora salvata. La nota è conservata in {journal}; esegui «dialogue-memo recover» per salvarla.",
        "refusedReview": "Hai chiesto di non registrare quella risposta, quindi non è stata conservata. La nota qui sotto contiene solo ciò che hai detto prima. [e]limina (predefinito: premi Invio), [s]alva o [m]odifica?",
        "refusedDiscarded": "Non è stato salvato nulla, come hai chiesto.",
        "saveFailedChoice": "Impossibile salvare la nota in {path}: {reason}. [r]iprova, salva [a]ltrove, [e]limina, o premi Invio per conservarla per «dialogue-memo recover»?",
        "saveElsewherePrompt": "Cartella in cui salvare la nota:", "keyRetry": "r", "keyElsewhere": "a",
        "tagProduct": "idea di prodotto", "tagMeeting": "riunione", "tagReflection": "riflessione", "tagGeneral": "idea",
        "nextStepsHeading": "Prossimi passi", "keySave": "s", "keyEdit": "m", "keyDiscard": "e", "keyYes": "s", "keyNo": "n",
    ]

    /// The real language files, `it.json` and a JSON file that is no language, in a new folder.
    static func localesWithItalian() throws -> URL {
        let real = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Locales")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("locales-it-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: real.path) where name.hasSuffix(".json") {
            try FileManager.default.copyItem(at: real.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let english = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: real.appendingPathComponent("en.json"))) as? [String: Any])
        let englishPhrases = try #require(english["phrases"] as? [String: Any])
        var phrases: [String: Any] = englishPhrases.mapValues { _ in [String]() }
        phrases["angleCues"] = [String: [String]]()
        phrases["negationFollowsVerb"] = false
        let italian: [String: Any] = [
            "language": "it", "name": "Italiano", "voice": "it", "voiceSample": "a", "whisperLanguage": "it",
            "opening": ["text": opening], "questions": questions.mapValues { ["text": $0] },
            "closing": ["ready": ["text": "Grazie. La tua nota è pronta da rivedere."],
                        "stop": ["text": "D’accordo, fermiamoci qui. La tua nota è pronta da rivedere."]],
            "noteTitle": "Promemoria del {date}", "noteDate": "{dd}/{mm}/{year}", "ui": ui, "phrases": phrases,
            "actionCues": ["intent": [String](), "past": [String]()],
            "dates": ["spaced": true, "relativeDays": [Any](), "nextWeekday": [String](), "nextWeek": [String](),
                      "nextMonth": [String](), "weekend": [String](), "writtenDates": [Any](), "times": [Any]()],
        ]
        try JSONSerialization.data(withJSONObject: italian, options: [.prettyPrinted, .sortedKeys])
            .write(to: folder.appendingPathComponent("it.json"))
        try Data(#"{ "weights": [0.5], "bias": 0 }"#.utf8).write(to: folder.appendingPathComponent("ending-probe.json"))
        return folder
    }

    @Test func aTypedExchangeInItalianSavesAnItalianNote() throws {
        let locales = try Self.localesWithItalian()
        let memo = try RunningMemo(["talk", "--type", "--yes", "--lang", "it", "--no-model"],
                                   extraEnvironment: ["DIALOGUE_MEMO_LOCALES": locales.path])
        let prompt = "Scrivi la tua risposta"
        try memo.waitForPrompts(1, marker: prompt); memo.type("Un’app per scambiarsi attrezzi tra vicini.")
        try memo.waitForPrompts(2, marker: prompt); memo.type("Serve a chi abita in condominio.")
        try memo.waitForPrompts(3, marker: prompt); memo.type("")
        let result = memo.finish()
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains(Self.opening), "\(result.output)")
        #expect(Self.questions.values.contains { result.output.contains($0) }, "no Italian question shown:\n\(result.output)")
        let notes = try FileManager.default.contentsOfDirectory(atPath: memo.notesDir)
        try #require(notes.count == 1, "\(result.output)")
        let note = try String(contentsOfFile: memo.notesDir + "/" + notes[0], encoding: .utf8)
        #expect(note.contains("language: \"it\""), "\(note)")
        let title = try #require(note.components(separatedBy: "\n").first { $0.hasPrefix("# ") }, "\(note)")
        #expect(title.range(of: #"^# Promemoria del \d\d/\d\d/\d{4}$"#, options: .regularExpression) != nil, "\(title)")
        #expect(note.contains("Un’app per scambiarsi attrezzi tra vicini.") && note.contains("Serve a chi abita in condominio."))
        #expect(result.output.contains("Salvata in "), "\(result.output)")
    }

    @Test func theLanguagesAreTheLanguageFilesPresent() throws {
        let locales = try Self.localesWithItalian()
        let result = try CLI.run(["talk", "--lang", "xx"], environment: ["DIALOGUE_MEMO_LOCALES": locales.path])
        #expect(result.status == 2 && result.stderr.contains(#"--lang takes one of en, de, es, fr, it, ja (not "xx")"#), "\(result.stderr)")
    }
}
