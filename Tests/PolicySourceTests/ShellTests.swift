import Testing
@testable import PolicySource

@Suite struct ShellTests {
    @Test(arguments: [
        ("Policies/a.yaml", "Policies/a.yaml"),
        ("my policies", "\"my policies\""),
        ("it's", "'it'\\''s'"),
        ("$HOME", "'$HOME'"),
        ("", "\"\""),
    ])
    func wordsReadBackAsGiven(word: String, quoted: String) {
        #expect(Shell.quoted(word) == quoted)
    }
}
