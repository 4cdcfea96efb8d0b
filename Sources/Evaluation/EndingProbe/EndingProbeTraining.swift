import Decisions
import DialogueCore
import Foundation

/// L2-regularized logistic regression by Newton's method, and the threshold from
/// cross-validation: small, exact, and repeatable (no random start, folds by index).
public enum EndingProbeTraining {
    /// Fits on standardized features and folds the standardization into the weights.
    /// `lambda` penalizes the standardized weights (not the bias).
    public static func fit(_ features: [[Float]], labels: [Bool], lambda: Double) -> LinearReadout {
        let n = features.count, d = features.first?.count ?? 0
        var mean = [Double](repeating: 0, count: d), spread = [Double](repeating: 0, count: d)
        for x in features { for i in 0..<d { mean[i] += Double(x[i]) / Double(n) } }
        for x in features { for i in 0..<d { spread[i] += pow(Double(x[i]) - mean[i], 2) / Double(n) } }
        spread = spread.map { sqrt($0) + 1e-6 }
        // Standardized rows with a trailing 1 for the bias.
        let rows = features.map { x in (0..<d).map { (Double(x[$0]) - mean[$0]) / spread[$0] } + [1] }
        var w = [Double](repeating: 0, count: d + 1)
        for _ in 0..<50 {
            var gradient = [Double](repeating: 0, count: d + 1)
            var hessian = [Double](repeating: 0, count: (d + 1) * (d + 1))
            for (row, label) in zip(rows, labels) {
                let p = LinearReadout.logistic(zip(row, w).reduce(0) { $0 + $1.0 * $1.1 })
                let residual = p - (label ? 1 : 0), weight = p * (1 - p)
                for i in 0...d {
                    gradient[i] += residual * row[i]
                    let scaled = weight * row[i]
                    for j in i...d { hessian[i * (d + 1) + j] += scaled * row[j] }
                }
            }
            for i in 0..<d { gradient[i] += lambda * w[i]; hessian[i * (d + 1) + i] += lambda }
            for i in 0...d { for j in 0..<i { hessian[i * (d + 1) + j] = hessian[j * (d + 1) + i] } }
            guard let step = solve(hessian, gradient, size: d + 1) else { break }
            for i in 0...d { w[i] -= step[i] }
            if step.map(abs).max() ?? 0 < 1e-7 { break }
        }
        let weights = (0..<d).map { Float(w[$0] / spread[$0]) }
        let bias = w[d] - (0..<d).reduce(0) { $0 + w[$1] * mean[$1] / spread[$1] }
        return LinearReadout(bias: bias, weights: weights)
    }

    /// Out-of-fold probabilities: case i is scored by the fit on the other folds (fold i % k).
    public static func outOfFold(_ features: [[Float]], labels: [Bool], lambda: Double, folds: Int = 5) -> [Double] {
        var probabilities = [Double](repeating: 0, count: features.count)
        for fold in 0..<folds {
            let train = features.indices.filter { $0 % folds != fold }
            let fit = fit(train.map { features[$0] }, labels: train.map { labels[$0] }, lambda: lambda)
            for i in features.indices where i % folds == fold { probabilities[i] = fit.probability(features[i]) }
        }
        return probabilities
    }

    /// Solves the symmetric positive definite system `a · x = b` (Cholesky); nil if it is not.
    static func solve(_ a: [Double], _ b: [Double], size n: Int) -> [Double]? {
        var l = [Double](repeating: 0, count: n * n)
        for i in 0..<n {
            for j in 0...i {
                var sum = a[i * n + j]
                for k in 0..<j { sum -= l[i * n + k] * l[j * n + k] }
                if i == j {
                    guard sum > 0 else { return nil }
                    l[i * n + i] = sqrt(sum)
                } else {
                    l[i * n + j] = sum / l[j * n + j]
                }
            }
        }
        var y = [Double](repeating: 0, count: n)
        for i in 0..<n {
            var sum = b[i]
            for k in 0..<i { sum -= l[i * n + k] * y[k] }
            y[i] = sum / l[i * n + i]
        }
        var x = [Double](repeating: 0, count: n)
        for i in stride(from: n - 1, through: 0, by: -1) {
            var sum = y[i]
            for k in (i + 1)..<n { sum -= l[k * n + i] * x[k] }
            x[i] = sum / l[i * n + i]
        }
        return x
    }
}

extension EndingProbeTraining {
    /// The layer read and the penalty, chosen on the dev split: by out-of-fold AUC, then, with
    /// plain content added, by the endings read out of fold at the zero-false threshold (the
    /// candidates and figures: scripts/speech.md, "Behind the evaluation code").
    public static let layerCount = 10
    public static let lambda = 30.0

    /// The calibrated margin: the thresholds are the highest out-of-fold probability of a
    /// training answer that goes on, times the last of `scales`, going down, before the first at
    /// which, out of fold, more than `maximumFalseCases` of the training cases' answers that go
    /// on (traps written to look like endings) or `maximumFalseContent` of the plain content
    /// would end. Why not the highest alone (scale 1): one trap sets it, and the endings the probe
    /// misses read just under it while the answers that go on read well below. Why 3 % of the
    /// traps: with the harder traps among the training data, a lower limit holds the thresholds
    /// at scale 1 (figures: scripts/speech.md, "Behind the evaluation code").
    static let scales = [1.0, 0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.5]
    static let maximumFalseCases = 0.03
    static let maximumFalseContent = 0.002

    /// `text` as whisper mishears a voice it knows poorly (espeak-ng's Japanese, say): one letter
    /// in five replaced by another of the same text, spaces and punctuation kept. Trained on as
    /// content that goes on, so words that make no sense do not read as an ending.
    public static func misheard(_ text: String) -> String {
        var characters = Array(text)
        let letters = characters.indices.filter { characters[$0].isLetter }
        guard letters.count > 5 else { return text }
        for (rank, index) in letters.enumerated() where rank % 5 == 2 {
            characters[index] = characters[letters[(rank * 7 + 3) % letters.count]]
        }
        return String(characters)
    }

    /// Trains on every case's latest answer (`mustEnd` is the label), plus `goingOn`, plain
    /// content sentences that must not end (the decision set's answers that go on are mostly
    /// traps: without plain content, "I want us to help each other" read as an ending);
    /// `refusal` only on the cases that end (category "refusal"). `progress` sees each answer
    /// read, of `cases.count + goingOn.count`.
    public static func train(_ cases: [ChoiceScenario], goingOn: [String] = [], model: LanguageModel,
                             progress: (Int) -> Void = { _ in }, report: (String) -> Void = { _ in }) async throws -> EndingProbe {
        var features: [EndingFeatures] = [], read: [ChoiceScenario] = [], ends: [Bool] = []
        for (index, scenario) in cases.enumerated() {
            if let x = try await model.endingFeatures(of: scenario.conversation.lastAnswer ?? "", layerCount: layerCount) {
                features.append(x)
                read.append(scenario)
                ends.append(scenario.mustEnd)
            }
            progress(index + 1)
        }
        let refusal = fitRefusal(features.map(\.whole), read)
        for (index, text) in goingOn.enumerated() {
            if let x = try await model.endingFeatures(of: text, layerCount: layerCount) {
                features.append(x)
                ends.append(false)
            }
            progress(cases.count + index + 1)
        }
        let wholeX = features.map(\.whole), closeX = features.map(\.close)
        let wholeOOF = outOfFold(wholeX, labels: ends, lambda: lambda), closeOOF = outOfFold(closeX, labels: ends, lambda: lambda)
        let calibration = calibrate(whole: wholeOOF, close: closeOOF, ends: ends, caseCount: read.count)
        calibration.rows.forEach(report)
        let whole = EndingProbe.Readout(fit(wholeX, labels: ends, lambda: lambda), threshold: calibration.whole)
        let close = EndingProbe.Readout(fit(closeX, labels: ends, lambda: lambda), threshold: calibration.close)
        return EndingProbe(model: model.fingerprint, layerCount: layerCount, whole: whole, close: close, refusal: refusal)
    }

    /// The thresholds of the two read-outs from their out-of-fold probabilities: each one's
    /// highest of an answer that goes on, times the calibrated scale (`scales`). `ends` labels
    /// the answers; the first `caseCount` are the training cases', the rest plain content. `rows`
    /// say, per scale, what it would read.
    static func calibrate(whole: [Double], close: [Double], ends: [Bool], caseCount: Int)
        -> (whole: Double, close: Double, scale: Double, rows: [String]) {
        func highestGoingOn(_ outOfFold: [Double]) -> Double { zip(outOfFold, ends).filter { !$0.1 }.map(\.0).max() ?? 0.5 }
        let wholeTop = highestGoingOn(whole), closeTop = highestGoingOn(close)
        let endings = ends.filter { $0 }.count, content = ends.count - caseCount
        var scale = 1.0, stillWithin = true, rows: [String] = []
        for candidate in scales {
            let hits = ends.indices.filter { whole[$0] >= candidate * wholeTop || close[$0] >= candidate * closeTop }
            let caught = hits.filter { ends[$0] }.count
            let falseCases = hits.filter { !ends[$0] && $0 < caseCount }.count, falseContent = hits.count - caught - falseCases
            let within = Double(falseCases) <= maximumFalseCases * Double(caseCount - endings)
                && Double(falseContent) <= maximumFalseContent * Double(content)
            stillWithin = stillWithin && within
            if stillWithin { scale = candidate }
            rows.append(String(format: "scale %.2f: endings read %d/%d, cases that go on read %d/%d, content read %d/%d",
                               candidate, caught, endings, falseCases, caseCount - endings, falseContent, content)
                        + (within ? "" : " (over the limit)"))
        }
        rows.append(String(format: "scale %.2f chosen", scale))
        return (scale * wholeTop, scale * closeTop, scale, rows)
    }

    /// Among the cases that end, refusal or not.
    static func fitRefusal(_ features: [[Float]], _ cases: [ChoiceScenario]) -> LinearReadout {
        let endings = cases.indices.filter { cases[$0].mustEnd }
        return fit(endings.map { features[$0] }, labels: endings.map { cases[$0].category == "refusal" }, lambda: lambda)
    }
}
