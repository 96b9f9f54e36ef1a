import PolicySource
import PolicyCheck

extension RuleID {
    public static let trafficViewerRef: RuleID = "traffic-viewer-ref"
}

extension TrafficRule {
    static let viewerRef = TrafficRule(
        .trafficViewerRef, .error,
        summary: "a device's viewer_ref changes within a recording, or a viewer_ref looks like personal data (an e-mail address, a phone number)",
        reference: Reference("Request tickets early", quote: "Send a stable viewer_ref: an HMAC of your user ID plus a hash of the install ID. Never per session, never personal data"),
        examples: [
            TrafficExample("a new viewer_ref on the same device", triggers: true, [
                .at(0, ["play 4"], .ok),
                .at(60, ["play 5"], .ok, marked: true, viewer: "session-2f9c1a"),
            ]),
            TrafficExample("an e-mail address as viewer_ref", triggers: true, [
                .at(0, ["play 4"], .ok, marked: true, viewer: "ana.silva@example.com"),
            ]),
            TrafficExample("two devices, each with its own stable viewer_ref", triggers: false, [
                .at(0, ["play 4"], .ok),
                .at(1, ["play 4"], .ok, device: "tablet-2", viewer: "k3Jd9sQm2vXa7LpT0bWc1e:Qp5tWx9zL2c"),
            ]),
        ],
        check: { recording, findings in
            var firstByDevice: [String: (client: Int, attempt: Int)] = [:]
            var order = recording.clients.indices.filter { !recording.clients[$0].attempts.isEmpty }
            order.sort { recording.clients[$0].attempts[0].entry.startMs < recording.clients[$1].attempts[0].entry.startMs }
            for c in order {
                let client = recording.clients[c]
                if let kind = TrafficRule.personalData(client.viewer) {
                    findings.add(client, at: 0, involving: [0], "viewer_ref '\(excerpt(client.viewer))' looks like \(kind); send an HMAC of the user ID plus a hash of the install ID")
                }
                guard !client.device.isEmpty else { continue }
                if let first = firstByDevice[client.device] {
                    let earlier = recording.clients[first.client]
                    var shown = client
                    shown.attempts.insert(earlier.attempts[0], at: 0)
                    findings.add(shown, at: 1, involving: [0, 1],
                                 "device \(excerpt(client.device)) changed its viewer_ref from '\(excerpt(earlier.viewer))' to '\(excerpt(client.viewer))'; it must be stable per viewer and device")
                } else {
                    firstByDevice[client.device] = (c, 0)
                }
            }
        })

    /// `an e-mail address`, `a phone number`, or nil.
    static func personalData(_ ref: String) -> String? {
        let scalars = Array(ref.unicodeScalars)
        if let at = scalars.firstIndex(of: "@"), at > 0, scalars[(at + 1)...].contains("."), !scalars.contains(" ") {
            return "an e-mail address"
        }
        let digits = scalars.filter { $0.properties.numericType != nil && $0.isASCII }.count
        let phoneish = scalars.allSatisfy { ($0.isASCII && $0.properties.numericType != nil) || " +-().".unicodeScalars.contains($0) }
        if phoneish, (7...15).contains(digits) { return "a phone number" }
        return nil
    }
}
