/// Words for a POSIX shell: the commands policyc suggests (`run 'policyc generate …' to update`).
public enum Shell {
    /// A word as a POSIX shell reads it back: as is when it is plain, else in double quotes (the
    /// hint itself stands in single ones), else in single quotes.
    public static func quoted(_ word: String) -> String {
        let word = printable(word)
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy {
            ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") || "-_./,=:@%+".unicodeScalars.contains($0)
        }
        if plain { return word }
        if !word.unicodeScalars.contains(where: { "\"$`\\!'".unicodeScalars.contains($0) }) { return "\"" + word + "\"" }
        return "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
