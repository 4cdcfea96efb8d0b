import DialogueCore
import Foundation

/// Whether the latest answer ends the exchange or refuses to be recorded, read linearly from
/// the language model's middle layer (`LanguageModel.endingFeatures`). Why: gemma-3-270m's
/// label scores never preferred an ending the phrase rules had missed (issue 13), yet its own
/// layers separate endings from content well: a logistic regression on the dev split of the
/// project's decision set reads them from the 10th layer's mean over the answer and over its
/// close. The weights are trained by `dialogue-memo eval choices FILE --split dev
/// --train-ending-probe OUT` and kept in `Locales/ending-probe.json` (`EndingProbeFile`); they
/// fit only the model they were trained on.
public struct EndingProbe: Sendable, Hashable, Codable {
    public let model: ModelFingerprint
    public let layerCount: Int
    /// Whether the answer ends or refuses, from the whole answer's mean.
    public let whole: Readout
    /// The same from the close's mean: an ending after content is read there.
    public let close: Readout
    /// Among answers that end, whether it is a refusal to be recorded (the whole mean; trained
    /// on the dev endings; above 0.5 it is one).
    public let refusal: LinearReadout

    /// A read-out with the probability above which the answer ends, calibrated out of fold on
    /// the training answers (`EndingProbeTraining.scales`).
    public struct Readout: Sendable, Hashable, Codable {
        public let readout: LinearReadout
        public let threshold: Double
        public init(_ readout: LinearReadout, threshold: Double) {
            self.readout = readout
            self.threshold = threshold
        }
    }

    public init(model: ModelFingerprint, layerCount: Int, whole: Readout, close: Readout, refusal: LinearReadout) {
        self.model = model
        self.layerCount = layerCount
        self.whole = whole
        self.close = close
        self.refusal = refusal
    }

    public func fits(_ model: LanguageModel) -> Bool { model.fingerprint == self.model }

    /// What the probe reads in one answer.
    public struct Reading: Sendable, Hashable {
        /// Each read-out's probability over its threshold (above 1: it ends).
        public let whole: Double
        public let close: Double
        public let refusal: Double
        /// A possible ending the phrase rules saw but do not force (`Rules.endingCue`).
        public let cue: EndSignal?

        public init(whole: Double, close: Double, refusal: Double, cue: EndSignal? = nil) {
            self.whole = whole
            self.close = close
            self.refusal = refusal
            self.cue = cue
        }

        public func with(cue: EndSignal?) -> Reading { Reading(whole: whole, close: close, refusal: refusal, cue: cue) }

        /// Above the thresholds; or, where the rules see a cue, above `withCue` of them.
        public var ends: Bool { max(whole, close) > (cue == nil ? 1 : EndingProbe.withCue) }
        /// An ending that refuses to be recorded.
        public var refuses: Bool { ends && (refusal > 0.5 || cue == .refusal) }
    }

    /// Where the rules see a possible ending they do not force (a refusal verb amid content,
    /// having to leave, an ending phrase in a clause of the last sentence), the two signals
    /// together end the exchange at this share of the thresholds: halfway between the endings
    /// the thresholds miss and the answers that go on, among the training sets' answers with a
    /// cue (figures: scripts/speech.md, "Behind the evaluation code").
    public static let withCue = 0.68

    public func read(_ features: EndingFeatures) -> Reading {
        Reading(whole: whole.readout.probability(features.whole) / whole.threshold,
                close: close.readout.probability(features.close) / close.threshold,
                refusal: refusal.probability(features.whole))
    }
}

/// A logistic read-out of features: the probability is the logistic of weights · x + bias.
public struct LinearReadout: Sendable, Hashable, Codable {
    /// Per feature, with the features' standardization folded in.
    public let weights: [Float]
    public let bias: Double

    public init(bias: Double, weights: [Float]) {
        self.weights = weights
        self.bias = bias
    }

    public func probability(_ features: [Float]) -> Double {
        var logit = bias
        for (w, x) in zip(weights, features) { logit += Double(w) * Double(x) }
        return Self.logistic(logit)
    }

    public static func logistic(_ logit: Double) -> Double { 1 / (1 + exp(-logit)) }
}

extension LanguageModel {
    /// What the probe reads in `answer`; nil when it was trained on another model or the
    /// answer is empty.
    public func endingReading(of answer: String, probe: EndingProbe) throws -> EndingProbe.Reading? {
        guard probe.fits(self), let features = try endingFeatures(of: answer, layerCount: probe.layerCount) else { return nil }
        return probe.read(features)
    }
}
