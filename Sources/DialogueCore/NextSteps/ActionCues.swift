import Foundation

/// A deterministic guess at whether a sentence is a next step, from the words people use for
/// one in each language: intention and obligation ("I'll", "need to", "voy a", "tengo que",
/// "je vais", "il faut", "werde", "muss", "予定", "〜しなければ"), a command at the start
/// ("Call the hotel…"), or a time still to come ("tomorrow", "el lunes", "bis Freitag",
/// "来週"); a time already past ("yesterday", "ayer", "gestern", "昨日") vetoes it. These are
/// patterns, not words shown to anyone, so they live here rather than in the locale files.
public enum ActionCues {
    /// 1 when the sentence reads as a next step, else 0 (a score, so it can weigh against the
    /// model's log-odds).
    public static func score(_ sentence: String, language: String) -> Double {
        guard let cues = table[language] else { return 0 }
        let text = sentence.replacingOccurrences(of: "’", with: "'")
        if let past = cues.past, matches(past, text) { return 0 }
        return cues.intent.contains { matches($0, text) } ? 1 : 0
    }

    private struct Cues: @unchecked Sendable {
        let intent: [NSRegularExpression]
        let past: NSRegularExpression?
    }

    private static func matches(_ pattern: NSRegularExpression, _ text: String) -> Bool {
        pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    private static func compile(_ patterns: [String], past: String?) -> Cues {
        func regex(_ pattern: String) -> NSRegularExpression {
            // The patterns are constants of this file; a typo is a programming error.
            try! NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
        }
        return Cues(intent: patterns.map(regex), past: past.map(regex))
    }

    private static let table: [String: Cues] = [
        "en": compile([
            #"\b(i'll|i will|we'll|we will|i'm going to|we're going to|(is|are) going to|need to|needs to|have to|has to|must|should|let's|will|want to|plan to)\b"#,
            // A command at the start, or after a leading time or condition ("Before Friday, send…").
            #"^([^,]{1,40}, )?(please )?(call|send|email|ask|book|check|write|buy|fix|schedule|remind|follow up|make sure|don't forget|remember to|bring|tell|prepare|update|share)\b"#,
            #"\b(tomorrow|tonight|next (week|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|by (monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|the end of))\b"#,
        ], past: #"\b(yesterday|last (week|time|month|year)|ago)\b"#),
        "es": compile([
            #"\b(voy a|vamos a|va a|van a|tengo que|tenemos que|tiene que|tienen que|hay que|debo|debemos|quiero|queremos|me encargo|se encarga)\b"#,
            // A need is a step only when it is something to do, not something to have.
            #"\b(necesito|necesitamos|necesita|necesitan) \w+(ar|er|ir)\b"#,
            #"^(por favor, )?(escribe|llama|manda|envía|pregunta|reserva|compra|revisa|prepara|avisa|recuerda|no olvides)\b"#,
            #"\b(mañana|pasado mañana|esta semana|la semana que viene|la próxima semana|el (lunes|martes|miércoles|jueves|viernes|sábado|domingo)|hasta el|antes del)\b"#,
            #"\b\w+(aré|eré|iré|ará|erá|irá|aremos|eremos|iremos|arán|erán|irán)\b"#,
        ], past: #"\b(ayer|la semana pasada|el año pasado)\b"#),
        "fr": compile([
            #"\b(je vais|on va|nous allons|il faut|il faudra|je dois|nous devons|on doit|je compte|je veux|nous voulons|s'occupe|m'occupe|se charge|me charge)\b"#,
            #"\b(va|vont) \w+(er|ir|re)\b"#,
            #"\b(demain|après-demain|cette semaine|la semaine prochaine|ce week-end|(lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche) prochain|d'ici|avant (lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|la fin))\b"#,
            #"\b\w+(erai|irai|ferai|era|ira|erons|irons|eront|iront)\b"#,
        ], past: #"\b(hier|la veille|l'an dernier|la semaine dernière)\b"#),
        "de": compile([
            #"\b(werde|werden|wird|muss|müssen|soll|sollen|sollte|sollten|will|wollen|möchte|kümmert sich|kümmere mich)\b"#,
            #"\b(morgen|übermorgen|heute abend|nächste woche|nächsten (montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag)|am (montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag)|bis (montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|morgen|zum)|beim nächsten mal|am wochenende|dieses wochenende)\b"#,
        ], past: #"\b(gestern|letzte woche|früher)\b"#),
        "ja": compile([
            #"(予定|つもり|なければ|なきゃ|ないといけない|必要がある|必要です|てみよう|しよう|ましょう|べき|ことにした|ことにする)"#,
            #"(明日|明後日|来週|来月|今日中|今週中|週末に|までに|[月火水木金土日]曜日に)"#,
        ], past: #"(昨日|先週|去年|昔)"#),
    ]
}
