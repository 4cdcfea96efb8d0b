import Foundation

/// How `dialogue-memo config` and the man page describe the settings.
extension ResolvedSettings {
    /// The config file's path, then every setting with its value and where it came from.
    public func report(path: String, configuration: SessionConfiguration) -> String {
        var lines: [String] = []
        let exists = FileManager.default.fileExists(atPath: path)
        lines += ["Config file: \(path)\(exists ? "" : " (none yet)")", ""]
        let modelUsed = applied(to: configuration).languageModel != nil
        let shown = entries.map { entry in
            let value = entry.key == SessionSetting.languageModel.key && !modelUsed ? "(none: no-model)"
                : entry.value ?? "(\(SessionSettings.setting(entry.key)?.unsetMeaning ?? "unset"))"
            return (entry.key, value, "\(entry.source)")
        }
        let keyWidth = shown.map(\.0.count).max() ?? 0
        let valueWidth = min(40, shown.map(\.1.count).max() ?? 0)
        for (key, value, source) in shown {
            lines.append(key.padding(toLength: keyWidth, withPad: " ", startingAt: 0) + " = "
                  + (value.count < valueWidth ? value.padding(toLength: valueWidth, withPad: " ", startingAt: 0) : value)
                  + "  (\(source))")
        }
        if let locale = unsupportedLocale {
            lines.append("")
            lines.append("The locale \(locale) has no language pack: English is used (set language in the config file or use --lang).")
        }
        return lines.joined(separator: "\n")
    }
}

extension SessionSettings {
    /// The man page's sections on settings: the config file, the environment, the files.
    public static var manualSections: [(String, String)] {
        [("Configuration", configuration), ("Environment", environment), ("Files", files)]
    }

    static var configuration: String {
        let keys = SessionSettings.all.map { setting in
            let overridden = ([setting.option].compactMap(\.self) + setting.variables).joined(separator: ", ")
            return "  \(setting.key) = \(setting.placeholder)    (\(overridden))"
        }
        return """
        Defaults for talk, record and the notes commands live in $XDG_CONFIG_HOME/dialogue-memo/config \
        (~/.config/dialogue-memo/config when XDG_CONFIG_HOME is unset). Each line is key = value; lines \
        that start with # are comments; a value runs to the end of the line, and a path may start with ~/. \
        A bad line is reported with its number and skipped. The command line wins over the environment, \
        which wins over the file, which wins over the built-in default; dialogue-memo config shows each \
        value and where it came from. The keys, with the option and the variables that override them:

        \(keys.joined(separator: "\n"))
        """
    }

    static var environment: String {
        """
        DIALOGUE_MEMO_<KEY> (the key in capitals, - as _) sets any key of the config file. LC_ALL, \
        LC_MESSAGES and LANG choose the language; VISUAL and EDITOR the editor. NO_COLOR turns colour off. \
        DIALOGUE_MEMO_CACHE is where make deps put the engines and models; DIALOGUE_MEMO_LOCALES a folder \
        of language packs.
        """
    }

    static var files: String {
        """
          ~/.config/dialogue-memo/config            the settings
          ~/.local/share/dialogue-memo/notes        the notes (Markdown)
          ~/.local/state/dialogue-memo/journals     unfinished exchanges, for recover
          ~/.cache/dialogue-memo                    the engines and models
        """
    }
}
