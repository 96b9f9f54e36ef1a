import PolicySource
import PolicyCheck
import PolicySimulation

/// `explain`'s Retry-After part, for every policy whether it honours the header or not: what the
/// policy does, and what honouring it does to each profile in the built-in scenarios whose servers
/// send it, simulated both ways — the spike (its peak: clients come back after the spike, not in
/// it) and the surge (its recovery: calls turned away together come back together, later).
public struct RetryAfterPart: Sendable {
    /// One profile, simulated with Retry-After honoured and ignored, all else as written.
    public struct Figures: Sendable {
        public var profile: String
        public var spike: (honoured: OutageFigures, ignored: OutageFigures)
        public var surge: (honoured: OutageFigures, ignored: OutageFigures)
    }

    public var honor: Bool
    public var maxJitterMs: Int
    /// Empty until `Explanation.addRetryAfterFigures` ran.
    public var profiles: [Figures] = []

    init(_ policy: Policy) {
        honor = policy.retryAfterHonor
        maxJitterMs = policy.retryAfterMaxJitterMs
    }

    static let scenarios = ["spike", "surge"]

    /// "honoured, with at most 1 s of jitter added: …; interactive: in the spike peak load 3.1× of
    /// normal (ignoring it: 7.2×), in the surge recovery 17 s (ignoring it: 6 s) …".
    public var sentence: String {
        var out = honor
            ? "honoured, with at most \(Wording.duration(maxJitterMs)) of random wait added: clients wait as long as the servers ask"
            : "ignored: clients retry on their own schedule even when the servers ask them to wait"
        guard !profiles.isEmpty else { return out }
        let other = honor ? "ignoring it" : "honouring it"
        out += ". Simulated both ways"
        for f in profiles {
            let (spikeOwn, spikeOther) = honor ? (f.spike.honoured, f.spike.ignored) : (f.spike.ignored, f.spike.honoured)
            let (surgeOwn, surgeOther) = honor ? (f.surge.honoured, f.surge.ignored) : (f.surge.ignored, f.surge.honoured)
            out += "; \(printable(f.profile)): in the spike peak load \(Wording.times(spikeOwn.peakLoad)) of normal "
                + "(\(other): \(Wording.times(spikeOther.peakLoad))), in the surge recovery "
                + "\(OutageReview.recovery(surgeOwn.recoverySeconds)) (\(other): \(OutageReview.recovery(surgeOther.recoverySeconds)))"
        }
        return out + ". Honouring it keeps a short spike's peak down (clients come back after the spike, not in it) and can "
            + "cost recovery in a longer surge (calls turned away together come back together) "
            + "(policyc simulate --scenario spike, --scenario surge)"
    }

    /// `{"honor", "maxJitterMs", "profiles": {"<profile>": {"spike": {"honoured": {…}, "ignored": {…}}, "surge": …}}}`.
    public var json: JSON {
        var members: [String: JSON] = ["honor": .bool(honor), "maxJitterMs": .int(maxJitterMs)]
        var byProfile: [String: JSON] = [:]
        for f in profiles {
            byProfile[f.profile] = .object([
                "spike": .object(["honoured": f.spike.honoured.json, "ignored": f.spike.ignored.json]),
                "surge": .object(["honoured": f.surge.honoured.json, "ignored": f.surge.ignored.json]),
            ])
        }
        members["profiles"] = .object(byProfile)
        return .object(members)
    }
}

extension Explanation {
    /// Simulates every profile in the spike and the surge with Retry-After honoured and ignored
    /// (the same seed as `diff`, runs with equal values made once).
    public mutating func addRetryAfterFigures() {
        let scenarios = RetryAfterPart.scenarios.compactMap(Scenario.builtin)
        guard scenarios.count == RetryAfterPart.scenarios.count else { return }
        var jobs: [(Policy, Policy.Profile, Scenario)] = []
        for p in policies {
            for e in p.profiles {
                for honour in [true, false] {
                    var policy = p.policy
                    policy.retryAfterHonor = honour
                    jobs += scenarios.map { (policy, e.profile, $0) }
                }
            }
        }
        let runs = OutageReview.simulate(jobs)
        var j = 0
        for p in policies.indices {
            var figures: [RetryAfterPart.Figures] = []
            for e in policies[p].profiles {
                // Jobs per profile: spike and surge honoured, then spike and surge ignored.
                let four = runs[j..<(j + 4)].map { $0.map { OutageFigures($0, profile: e.profile) } }
                j += 4
                guard let sh = four[0], let uh = four[1], let si = four[2], let ui = four[3] else { continue }
                figures.append(RetryAfterPart.Figures(profile: e.profile.name, spike: (sh, si), surge: (uh, ui)))
            }
            policies[p].retryAfter.profiles = figures
        }
    }
}
