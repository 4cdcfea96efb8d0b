import Foundation

extension String {
    /// Every run of `n` characters of the text, letters and digits case folded and any run of
    /// other characters as one space: how much of one reading of speech another keeps, in any
    /// script (no word breaks needed).
    public func characterGrams(_ n: Int) -> [String] {
        var folded: [Character] = []
        for character in lowercased() {
            if character.isLetter || character.isNumber {
                folded.append(character)
            } else if folded.last.map({ $0 != " " }) ?? false {
                folded.append(" ")
            }
        }
        guard n > 0, folded.count >= n else { return [] }
        return (0...(folded.count - n)).map { String(folded[$0..<($0 + n)]) }
    }

    /// How many letters the text holds: how much of an answer a reading of it kept, in any
    /// script, without counting spaces, marks or digits.
    public var letterCount: Int { unicodeScalars.filter { CharacterSet.letters.contains($0) }.count }
}
