import Testing
@testable import PolicyCheck

@Suite struct CodeTargetListTests {
    @Test func namesInTheOrderGiven() {
        #expect((try? CodeTarget.list("kotlin, swift").get()) == [.kotlin, .swift])
    }

    @Test(arguments: [
        ("swfit", "unknown target 'swfit' in '--targets'; did you mean 'swift'?"),
        ("swift,swift", "target 'swift' is given twice in '--targets'"),
        ("swift,", "'--targets' needs a comma-separated list of targets"),
    ])
    func refusals(list: String, message: String) {
        guard case .failure(let problem) = CodeTarget.list(list) else {
            Issue.record("'\(list)' was accepted")
            return
        }
        #expect(problem.message.hasPrefix(message), "\(problem.message)")
    }
}
