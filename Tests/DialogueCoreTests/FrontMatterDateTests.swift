import DialogueCore
import Foundation
import Testing

@Suite struct FrontMatterDateTests {
    /// The hand-read timestamps must be the formatter's, to the second, wherever they are read.
    @Test func readByHandAsTheFormatterReadsThem() {
        var rng = SystemRandomNumberGenerator()
        let formatter = ISO8601DateFormatter()
        for _ in 0..<2_000 {
            let zone = ["Z", "+09:00", "-05:30", "+00:00", "+14:00", "-12:00"].randomElement(using: &rng)!
            let text = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", Int.random(in: 1900...2200, using: &rng), Int.random(in: 1...12, using: &rng),
                              Int.random(in: 1...31, using: &rng), Int.random(in: 0...23, using: &rng), Int.random(in: 0...59, using: &rng),
                              Int.random(in: 0...59, using: &rng)) + zone
            #expect(FrontMatter.date(text) == formatter.date(from: text), "\(text)")
        }
        for odd in ["", "2026-11-29", "2026-11-29T10:00:00", "2026-13-01T00:00:00Z", "2026-11-29T10:00:00.5Z", "2026-02-30T10:00:00Z",
                    "2026-11-29 10:00:00Z", "２０２６-11-29T10:00:00Z", "2026-11-29T10:00:00+0100"] {
            #expect(FrontMatter.date(odd) == formatter.date(from: odd), "\(odd)")
        }
    }
}
