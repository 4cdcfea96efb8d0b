/// A man page (troff, the `man` macros) written from a program's command references: the same
/// text as every `--help`, so the page cannot drift from the options.
public struct ManPage: Sendable {
    public let program: String
    public let version: String
    /// The one line after the name in NAME.
    public let summary: String
    public let top: CommandReference
    /// More sections after the commands ("FILES", "ENVIRONMENT"), as plain text paragraphs.
    public let sections: [(title: String, text: String)]

    public init(program: String, version: String, summary: String, top: CommandReference,
                sections: [(title: String, text: String)] = []) {
        self.program = program
        self.version = version
        self.summary = summary
        self.top = top
        self.sections = sections
    }

    public var troff: String {
        var lines = [
            ".TH \(Self.escape(program.uppercased())) 1 \"\" \"\(Self.escape(program)) \(Self.escape(version))\" \"User Commands\"",
            ".nh",   // no hyphenation: paths and option names stay whole
            ".SH NAME", "\(Self.escape(program)) \\- \(Self.escape(summary))",
            ".SH SYNOPSIS", ".B \(Self.escape(top.synopsis))",
        ]
        if !top.about.isEmpty { lines += [".SH DESCRIPTION"] + Self.paragraphs(top.about) }
        lines.append(".SH COMMANDS")
        for (path, command) in ShellCompletion.walk(top).dropFirst() where command.subcommands.isEmpty {
            lines += [".SS \"\(Self.escape(path.joined(separator: " ")))\"", ".B \(Self.escape(command.synopsis))", ".br"]
            lines += Self.paragraphs(command.summary.isEmpty ? command.about : command.summary
                                     + (command.about.isEmpty ? "" : ".\n\n" + command.about))
            for argument in command.arguments {
                let label = argument.isOption
                    ? argument.names.map { "\\fB\(Self.escape($0))\\fR" }.joined(separator: ", ")
                        + (argument.placeholder.isEmpty ? "" : " \\fI\(Self.escape(argument.placeholder))\\fR")
                    : "\\fI\(Self.escape(argument.placeholder))\\fR"
                lines += [".TP", label, Self.escape(argument.help.replacingOccurrences(of: "\u{A0}", with: " "))]
            }
        }
        for section in sections {
            lines += [".SH \(Self.escape(section.title.uppercased()))"] + Self.paragraphs(section.text)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Blank-line separated paragraphs; one with indented lines (an example) keeps its lines.
    static func paragraphs(_ text: String) -> [String] {
        text.components(separatedBy: "\n\n").flatMap { paragraph -> [String] in
            let lines = paragraph.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
            guard !lines.isEmpty else { return [] }
            if lines.contains(where: { $0.hasPrefix(" ") }) {
                return [".PP", ".nf"] + lines.map(escape) + [".fi"]
            }
            return [".PP", escape(lines.joined(separator: " "))]
        }
    }

    /// Text safe in troff: backslashes and hyphens escaped, no line starting with a control character.
    static func escape(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }
}
