import DialogueCore
import Speech

extension AdaptiveWait {
    /// This wait for answers in `language`, shifted as that language's file says
    /// (`LanguagePack.turnThresholdShift`, as the standard search finds it); unshifted without one.
    public func forLanguage(_ language: Language) -> AdaptiveWait {
        shifted(by: LanguagePackLoader.standardPack(language)?.turnThresholdShift ?? 0)
    }
}
