import DialogueCore

/// Tests name a language by its code ("ja"); the product cannot, so no stray code enters it.
extension Language: ExpressibleByStringLiteral {
    public init(stringLiteral code: String) { self.init(code) }
}
