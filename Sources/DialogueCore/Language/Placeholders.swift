/// `{name}` placeholders in locale strings. Names are ASCII letters and digits.
public enum Placeholders {
    /// Replaces each `{name}` that has a value; leaves unknown ones visible, so a missing value
    /// shows up in testing rather than as an empty gap.
    public static func fill(_ template: String, _ values: [String: String]) -> String {
        var result = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "}") else {
                rest = rest[open...]
                break
            }
            let name = String(rest[afterOpen..<close])
            if let value = values[name], isName(name) {
                result += value
            } else {
                result += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// The placeholder names used in a template, for the cross-language consistency test.
    public static func names(in template: String) -> Set<String> {
        var names = Set<String>()
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "}") else { break }
            let name = String(rest[afterOpen..<close])
            if isName(name) { names.insert(name) }
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    private static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
    }
}
