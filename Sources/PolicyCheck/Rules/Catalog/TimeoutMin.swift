import PolicySource

extension Rule {
    package static let timeoutMin = Rule(
        .timeoutMin, .error,
        summary: "a profile's timeout is under 5 s",
        reference: Reference("What Wandura does when it is busy; Checklist",
                             quote: "give ticket requests at least 5 seconds of client timeout"),
        fixes: [.unsafe],
        examples: [
            .canonical(replacing: "timeout: 8s", with: "timeout: ↓4s", triggers: true,
                       note: "an interactive timeout of 4 s; the unsafe fix writes the least allowed, 5s",
                       unsafeFixed: "timeout: 5s"),
            .canonical(replacing: "timeout: 15s", with: "timeout: ↓4999ms", triggers: true,
                       note: "a millisecond under the limit", unsafeFixed: "timeout: 5s"),
            .canonical([("timeout: 8s", "timeout: ↓2s"), ("deadline: 15s", "deadline: 3s")], triggers: true,
                       note: "no fix when 5s would outlast the deadline"),
            .canonical(replacing: "timeout: 8s", with: "timeout: 5s", triggers: false,
                       note: "exactly 5 s is enough"),
            .canonical(replacing: "timeout: 8s", with: "timeout: 5000ms", triggers: false,
                       note: "any spelling of 5 s"),
        ],
        check: { doc, findings in
            for profile in doc.profiles {
                guard let timeout = profile.timeout, timeout.value < 5000 else { continue }
                // 5s is the nearest compliant value, unless it would break the deadline. The guide's
                // own profiles leave more room (8s interactive, 15s background): named as the
                // alternative when it fits the deadline too.
                let deadline = profile.deadline?.value ?? Int.max
                let (own, ownMs) = profile.kind?.value == "background" ? ("15s", 15000) : ("8s", 8000)
                let kind = profile.kind?.value == "background" ? "background" : "interactive"
                let why = "the least the guide allows" + (deadline >= ownMs ? "; the guide's own \(kind) profile uses \(own)" : "")
                let fix = deadline >= 5000 ? findings.replacing(timeout.span, key: "timeout", with: "5s", why: why) : nil
                findings.add(at: timeout.span,
                             "profile '\(excerpt(profile.name.value))' has a timeout of \(Format.duration(timeout.value)); ticket requests need at least 5s",
                             fix: fix)
            }
        })
}
