import PolicySource
import PolicyCheck
import PolicySimulation

/// The sentences of a change of the retry budget: where the ratio binds, where the floor governs
/// (and the ratio then changes nothing), and where the standard outage's devices are.
extension Effects {
    /// The ratio binds only a client that sends at least ⌈minPerMinute / ratio⌉ requests a minute;
    /// below that the floor governs and the ratio changes nothing. Both are said, and where the
    /// standard outage's devices are.
    static func budgetRatio(old: PolicyDoc, new: PolicyDoc) -> String {
        guard let b = old.budgetRatio?.value, let a = new.budgetRatio?.value else { return "" }
        var out = "retry budget: at most \(Format.percent(a)) of last minute's requests instead of \(Format.percent(b))"
        guard let floor = new.budgetMinPerMinute?.value, floor > 0 else {
            return out + "; during an outage retries add up to \(Format.percent(a)) to the load (no floor)"
        }
        let t0 = BudgetFigures(ratio: b, minPerMinute: old.budgetMinPerMinute?.value ?? floor).floorBelowRequestsPerMinute
        let t1 = BudgetFigures(ratio: a, minPerMinute: floor).floorBelowRequestsPerMinute
        let low = min(t0, t1), high = max(t0, t1)
        out += ", for a client that sends at least \(high) requests a minute; below \(low) requests a minute the floor of "
            + "\(Wording.count(floor, "retry", "retries")) a minute governs either way, and the ratio changes nothing there"
        if t0 != t1 {
            out += " (from \(low) to \(high) requests a minute the " + (t1 > t0 ? "floor now governs" : "ratio now governs") + ")"
        }
        return out + standardOutageNote(below: low, profiles: new.profiles)
    }

    static func budgetFloor(old: PolicyDoc, new: PolicyDoc) -> String {
        let (b, a) = (old.budgetMinPerMinute?.value ?? 0, new.budgetMinPerMinute?.value ?? 0)
        var out = "retry budget floor: \(b) → \(a) retries a minute are always allowed"
        if let ratio = new.budgetRatio?.value, a > 0 {
            let t1 = BudgetFigures(ratio: ratio, minPerMinute: a).floorBelowRequestsPerMinute
            out += ", whatever the ratio; the floor governs for a client that sends fewer than \(t1) requests a minute"
            if let before = old.budgetRatio?.value, b > 0 {
                let t0 = BudgetFigures(ratio: before, minPerMinute: b).floorBelowRequestsPerMinute
                if t0 != t1 { out += " (before: \(t0))" }
            }
            out += ", and there the ratio (\(Format.percent(ratio))) changes nothing"
            out += standardOutageNote(below: min(t1, BudgetFigures(ratio: ratio, minPerMinute: max(1, b)).floorBelowRequestsPerMinute),
                                      profiles: new.profiles)
        } else if a == 0 {
            out += ": only the ratio limits retries"
        }
        return out
    }

    /// "; in the standard outage a device sends at most 2 requests a minute (0.5 calls, up to 4
    /// attempts each), so the floor governs there" when the simulated devices are all below `below`.
    static func standardOutageNote(below: Int, profiles: [PolicyDoc.Profile]) -> String {
        let calls = Scenario.standard.groups.map(\.callsPerMinute).max() ?? 0
        let attempts = profiles.compactMap { $0.maxRetries?.value }.max().map { $0 + 1 } ?? 1
        let requests = calls * Double(attempts)
        guard calls > 0, requests < Double(below) else { return "" }
        return "; in the standard outage a device sends at most \(Wording.decimal(requests, places: 1)) "
            + "requests a minute (\(Wording.decimal(calls, places: 2)) calls, up to \(Wording.count(attempts, "attempt")) each), "
            + "so the floor governs there"
    }
}
