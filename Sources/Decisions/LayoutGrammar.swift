import DialogueCore

/// The GBNF grammar for the layout step: only valid partitions of 1…N can be written. The IDs
/// are forced in ascending order; the model's only choices are the title flag and, between
/// two IDs, "," (same paragraph) or "],[" (new paragraph). Exact output shape:
/// `{"firstSourceIsTitle":true,"groups":[[1],[2,3]]}` (the shape `Layout.parse` reads).
///
/// A title needs other sentences to remain, so N = 1 has no title branch. Groups hold at most
/// `Layout.maxGroupSize` IDs: below that size nothing needs counting; above it the grammar
/// tracks the length of the open group (one rule per ID and length) and forces a break.
public enum LayoutGrammar {
    public static func gbnf(sourceCount n: Int) -> String {
        precondition(n >= 1, "a layout grammar needs at least one sentence")
        var rules: [String] = []
        let head = GBNF.literal(#"{"firstSourceIsTitle":"#)
        let tail = GBNF.literal("]]}")
        if n == 1 {
            rules.append("root ::= " + head + " " + GBNF.literal(#"false,"groups":[[1"#) + " " + tail)
            return rules.joined(separator: "\n") + "\n"
        }
        rules.append("root ::= " + head + " ( title | notitle ) " + tail)
        let titleStart = GBNF.literal(#"true,"groups":[[1],["#)
        let plainStart = GBNF.literal(#"false,"groups":[["#)
        if n <= Layout.maxGroupSize {
            rules.append("title ::= " + titleStart + " " + run(from: 2, to: n))
            rules.append("notitle ::= " + plainStart + " " + run(from: 1, to: n))
            rules.append(#"sep ::= "," | "],[""#)
        } else {
            rules.append("title ::= " + titleStart + " p2x1")
            rules.append("notitle ::= " + plainStart + " p1x1")
            rules += counted(from: 1, to: n)
        }
        return rules.joined(separator: "\n") + "\n"
    }

    /// `"2" sep "3" sep … "n"`
    static func run(from first: Int, to last: Int) -> String {
        (first...last).map { GBNF.literal(String($0)) }.joined(separator: " sep ")
    }

    /// `p<i>x<k>`: write ID i as the k-th ID of the open group, then continue.
    static func counted(from first: Int, to last: Int) -> [String] {
        var rules: [String] = []
        for i in first...last {
            for k in 1...min(Layout.maxGroupSize, i - first + 1) {
                let id = GBNF.literal(String(i))
                if i == last {
                    rules.append("p\(i)x\(k) ::= \(id)")
                } else if k < Layout.maxGroupSize {
                    rules.append("p\(i)x\(k) ::= \(id) ( \",\" p\(i + 1)x\(k + 1) | \"],[\" p\(i + 1)x1 )")
                } else {
                    rules.append("p\(i)x\(k) ::= \(id) \"],[\" p\(i + 1)x1")
                }
            }
        }
        return rules
    }
}
