import DialogueCore

/// The GBNF grammar for the next-question step: exactly one label of the cases the rules
/// still allow, nothing else. Generated per call from `ChoiceOptions`, so the model cannot
/// even spell a case the rules would reject.
public enum QuestionGrammar {
    /// `root ::= "Who is it for?" | "How would it work?" | …` in contract order.
    public static func gbnf(for choices: [QuestionChoice], style: LabelStyle = .question) -> String {
        let ordered = QuestionChoice.allCases.filter(choices.contains)
        precondition(!ordered.isEmpty, "a question grammar needs at least one choice")
        return "root ::= " + ordered.map { GBNF.literal(ChoiceLabels.label($0, style: style)) }.joined(separator: " | ") + "\n"
    }

    public static func gbnf(for options: ChoiceOptions, style: LabelStyle = .question) -> String {
        gbnf(for: options.choices, style: style)
    }
}
