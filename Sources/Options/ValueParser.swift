import Foundation

/// Turns an argument's text into a value, or rejects it; `requirement` completes the message
/// for a rejected value: "--seed needs a whole number (not "x")".
public struct ValueParser<Value>: Sendable {
    public let requirement: String
    /// The placeholder of a fixed list ("relaxed|default|aggressive"); nil: the declaration names it.
    public let placeholder: String?
    /// Every accepted word, when the values are a fixed list (shell completion offers them).
    public let choices: [String]?
    public let parse: @Sendable (String) -> Value?
    /// A value as the help shows it (the default).
    public let describe: @Sendable (Value) -> String

    public init(_ requirement: String, placeholder: String? = nil, choices: [String]? = nil,
                describe: @escaping @Sendable (Value) -> String = { "\($0)" },
                parse: @escaping @Sendable (String) -> Value?) {
        self.requirement = requirement
        self.placeholder = placeholder ?? choices?.joined(separator: "|")
        self.choices = choices
        self.parse = parse
        self.describe = describe
    }

    /// The one-line reason for a rejected value: `--seed needs a whole number (not "x")`.
    public func rejection(of text: String, for name: String) -> String {
        rejectionReason(text, name: name, requirement: requirement)
    }
}

func rejectionReason(_ text: String, name: String, requirement: String) -> String {
    "\(name) \(requirement) (not \"\(text)\")"
}

extension ValueParser where Value == String {
    /// Any text.
    public static var text: Self { Self("needs a value") { $0 } }

    /// One of a fixed list of words.
    public static func oneOf(_ choices: [String]) -> Self {
        Self("takes one of \(choices.joined(separator: ", "))", choices: choices) {
            choices.contains($0) ? $0 : nil
        }
    }

    /// The path of a file that exists (checked before any slow work such as loading a model).
    public static var existingFile: Self {
        Self("needs an existing file") { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue ? path : nil
        }
    }
}

extension ValueParser where Value: CaseIterable & RawRepresentable & Sendable, Value.RawValue == String {
    /// One of an enum's cases, by raw value.
    public static var cases: Self {
        let names = Value.allCases.map(\.rawValue)
        return Self("takes one of \(names.joined(separator: ", "))", choices: names,
                    describe: { $0.rawValue }) { Value(rawValue: $0) }
    }
}

extension ValueParser where Value == Bool {
    /// true or false (yes/no and on/off too, as people write them in a settings file).
    public static var boolean: Self {
        Self("takes true or false", choices: ["true", "false"], describe: { $0 ? "true" : "false" }) { text in
            switch text.lowercased() {
            case "true", "yes", "on": true
            case "false", "no", "off": false
            default: nil
            }
        }
    }
}

extension ValueParser where Value == Double {
    /// A finite number, at least `minimum`.
    public static func number(atLeast minimum: Double) -> Self {
        Self("needs a number ≥ \(String(format: "%g", minimum))", describe: { String(format: "%g", $0) }) { text in
            Double(text).flatMap { $0.isFinite && $0 >= minimum ? $0 : nil }
        }
    }
}

extension ValueParser where Value: FixedWidthInteger & Sendable {
    /// A whole number (in the type's range), at least `minimum` when one is given.
    public static func wholeNumber(atLeast minimum: Value? = nil) -> Self {
        Self(minimum.map { "needs a whole number ≥ \($0)" } ?? "needs a whole number") { text in
            Value(text).flatMap { $0 >= (minimum ?? .min) ? $0 : nil }
        }
    }
}
