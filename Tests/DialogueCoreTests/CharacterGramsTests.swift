import Testing
@testable import DialogueCore

@Suite struct CharacterGramsTests {
    /// Case and punctuation do not count: two readings that differ only there share every gram.
    @Test func lettersAndDigitsFoldedOtherRunsOneSpace() {
        #expect("Ab, c!".characterGrams(3) == ["ab ", "b c", " c "])
        #expect(Set("Das war's.".characterGrams(3)) == Set("das  WAR-S!".characterGrams(3)))
        #expect("予約です".characterGrams(3) == ["予約で", "約です"])
        #expect("ab".characterGrams(3).isEmpty && "abc".characterGrams(0).isEmpty)
    }
}
