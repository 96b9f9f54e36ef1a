import PolicySource
import PolicyCheck
import PolicySimulation

/// The waits between attempts that a call can actually make, as opposed to the cap it is allowed:
/// with 3 retries doubling from 500 ms the waits are at most 500 ms, 1 s and 2 s, so a cap of 8 s
/// or 30 s is never reached. A wait happens only while the call is within its deadline (the
/// generated `callWithRetries` ends "deadline" before a wait that would pass it), so a wait counts
/// when the least the waits up to it can add up to — attempts that fail at once, the fastest way
/// through a call — stays under the deadline.
struct ReachableWaits: Equatable {
    /// The largest wait before each retry that can happen, in order.
    var steps: [Int]
    /// The cap the profile allows (for the words "the cap is never reached").
    var cap: Int

    /// The largest of them; nil when no retry can wait (no retries, or none within the deadline).
    var longest: Int? { steps.max() }

    init(maxRetries: Int, base: Int, cap: Int, deadline: Int, backoff: Backoff?) {
        self.cap = cap
        let largest = BackoffSteps.longest(min(max(0, maxRetries), Language.maxRetries), base: max(0, base),
                                           cap: max(0, cap), growth: WaitGrowth(backoff: backoff))
        var least = 0
        var out: [Int] = []
        for v in largest {
            // The least this wait can be: full jitter may draw 0, equal jitter half its step.
            let low = backoff == .fullJitter ? 0 : backoff == .equalJitter ? v / 2 : v
            guard least + v < deadline else { break }
            out.append(v)
            least += low
        }
        steps = out
    }

    /// The waits of a profile as written; nil when a value is missing.
    init?(_ p: PolicyDoc.Profile, backoff: Backoff?) {
        guard let r = p.maxRetries?.value, let b = p.base?.value, let c = p.cap?.value, let d = p.deadline?.value
        else { return nil }
        self.init(maxRetries: r, base: b, cap: c, deadline: d, backoff: backoff)
    }

    /// "2 s", or "no wait" when no retry can wait.
    var longestWords: String { longest.map(Wording.duration) ?? "no wait" }

    /// The sentence of a change of cap (or of anything that moves the longest wait): the longest
    /// wait that can happen on each side, and whether the cap is reached at all.
    static func capSentence(old: ReachableWaits, new: ReachableWaits, growth: WaitGrowth) -> String {
        let caps = "cap \(Wording.duration(old.cap)) → \(Wording.duration(new.cap))"
        guard old.longest != new.longest else {
            let how = growth == .constant ? "constant waits" : "waits doubling from the base"
            return "\(caps) changes no wait: the longest wait that can happen is \(new.longestWords) either way "
                + "(\(Wording.count(new.steps.count, "retry", "retries")) that can wait, \(how), within the deadline)"
        }
        var out = "longest wait between attempts: \(old.longestWords) → \(new.longestWords)"
        if let longest = new.longest, longest < new.cap {
            out += " (the cap of \(Wording.duration(new.cap)) is never reached)"
        }
        return out
    }
}
