enum DeclarationKind: Sendable { case flag, value, positional(optional: Bool) }

/// A key path the parser can keep in a `static let` (key path literals are Sendable).
public typealias Property<Root, Value> = WritableKeyPath<Root, Value> & Sendable

/// One option or positional argument of a command, bound to a property of its options struct.
/// Each is written the way the help shows it: `"--json"`, `"--lang xx"`, `"FILE.wav"`, and
/// `"[COUNT]"` for a positional that may be left out.
public struct Declaration<Root>: Sendable {
    let kind: DeclarationKind
    /// An option's names (the first is the one shown), or the positional's name.
    let names: [String]
    /// The name shown ("--lang", "FILE.wav").
    public var name: String { names[0] }
    /// What the value is called in the help ("PATH", "ja|en"); empty for flags.
    let placeholder: String
    let help: String
    /// The end of a bad-value message: "needs a number ≥ 0".
    let requirement: String
    /// Stores an argument's text into the property; false when the text is not a valid value.
    let store: @Sendable (inout Root, String) -> Bool
    /// The property's value in a fresh options struct, for the help's "(default: …)" (nil or
    /// empty: none shown; flags and required positionals show none).
    let defaultText: @Sendable (Root) -> String?
    /// The accepted words of a fixed list (for shell completion); empty: any text.
    var choices: [String] = []

    var isOption: Bool { if case .positional = kind { false } else { true } }
    var isOptionalPositional: Bool { if case .positional(optional: true) = kind { true } else { false } }

    /// "--lang xx" → ("--lang", "xx"); "--json" → ("--json", nil).
    private static func split(_ declared: String) -> (name: String, placeholder: String?) {
        guard let space = declared.firstIndex(of: " ") else { return (declared, nil) }
        return (String(declared[..<space]), String(declared[declared.index(after: space)...]))
    }

    private static func option<Value>(_ declared: String, aliases: [String], _ help: String, _ parser: ValueParser<Value>,
                                      set: @escaping @Sendable (inout Root, Value) -> Void,
                                      current: @escaping @Sendable (Root) -> Value?) -> Self {
        let (name, placeholder) = split(declared)
        return Self(kind: .value, names: [name] + aliases, placeholder: placeholder ?? parser.placeholder ?? "VALUE",
                    help: help, requirement: parser.requirement,
                    store: { root, text in
                        guard let value = parser.parse(text) else { return false }
                        set(&root, value)
                        return true
                    },
                    defaultText: { root in current(root).map(parser.describe) }, choices: parser.choices ?? [])
    }

    // MARK: Flags

    /// `--json`: sets the property to true.
    public static func flag(_ name: String, _ property: Property<Root, Bool>, _ help: String,
                            aliases: [String] = []) -> Self {
        flag(name, property, help, setting: true, aliases: aliases)
    }

    /// A flag that sets the property to `value`: `--no-overlap` turns `overlap` off.
    public static func flag<Value: Sendable>(_ name: String, _ property: Property<Root, Value>, _ help: String,
                                             setting value: Value, aliases: [String] = []) -> Self {
        Self(kind: .flag, names: [name] + aliases, placeholder: "", help: help, requirement: "",
             store: { root, _ in root[keyPath: property] = value; return true }, defaultText: { _ in nil })
    }

    // MARK: Options with a value (`--name value` or `--name=value`)

    /// `--rules-prior X`: a value checked and converted by `parser`.
    public static func value<Value>(_ declared: String, _ property: Property<Root, Value>, _ help: String,
                                    _ parser: ValueParser<Value>, aliases: [String] = []) -> Self {
        option(declared, aliases: aliases, help, parser, set: { $0[keyPath: property] = $1 }, current: { $0[keyPath: property] })
    }

    /// `--format chat|completion` into an optional property: nil until given (no default shown).
    public static func value<Value>(_ declared: String, _ property: Property<Root, Value?>, _ help: String,
                                    _ parser: ValueParser<Value>, aliases: [String] = []) -> Self {
        option(declared, aliases: aliases, help, parser, set: { $0[keyPath: property] = $1 }, current: { $0[keyPath: property] })
    }

    /// `--lang xx`: any text.
    public static func value(_ declared: String, _ property: Property<Root, String>, _ help: String,
                             aliases: [String] = []) -> Self {
        value(declared, property, help, .text, aliases: aliases)
    }

    /// `--whisper-model PATH`: any text, nil until given.
    public static func value(_ declared: String, _ property: Property<Root, String?>, _ help: String,
                             aliases: [String] = []) -> Self {
        value(declared, property, help, .text, aliases: aliases)
    }

    // MARK: Positionals (in the order declared)

    /// `FILE.wav` (required) or `[COUNT]` (optional: the property keeps its value when left out).
    public static func positional<Value>(_ declared: String, _ property: Property<Root, Value>, _ help: String,
                                         _ parser: ValueParser<Value>) -> Self {
        let optional = declared.hasPrefix("[") && declared.hasSuffix("]")
        let name = optional ? String(declared.dropFirst().dropLast()) : declared
        return Self(kind: .positional(optional: optional), names: [name], placeholder: name, help: help,
                    requirement: parser.requirement,
                    store: { root, text in
                        guard let value = parser.parse(text) else { return false }
                        root[keyPath: property] = value
                        return true
                    },
                    defaultText: { root in optional ? parser.describe(root[keyPath: property]) : nil },
                    choices: parser.choices ?? [])
    }

    /// `ID`, `QUERY`: any text.
    public static func positional(_ declared: String, _ property: Property<Root, String>, _ help: String) -> Self {
        positional(declared, property, help, .text)
    }

    // MARK: Sharing

    /// The same declaration for a struct that holds `Root` in a property: options shared by
    /// several commands are declared once, in their own struct.
    public func within<Outer>(_ part: Property<Outer, Root>) -> Declaration<Outer> {
        let store = self.store, defaultText = self.defaultText
        return Declaration<Outer>(kind: kind, names: names, placeholder: placeholder, help: help, requirement: requirement,
                                  store: { outer, text in store(&outer[keyPath: part], text) },
                                  defaultText: { outer in defaultText(outer[keyPath: part]) }, choices: choices)
    }
}

extension Array {
    /// Every declaration of a shared part, for a struct that holds it in `part`.
    public func within<Root, Outer>(_ part: Property<Outer, Root>) -> [Declaration<Outer>] where Element == Declaration<Root> {
        map { $0.within(part) }
    }
}
