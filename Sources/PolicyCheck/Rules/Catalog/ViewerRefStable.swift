import PolicySource

extension RuleID {
    public static let viewerRefStable: RuleID = "viewer-ref-stable"
}

extension Rule {
    static let viewerRefStable = Rule(
        .viewerRefStable, .error,
        summary: "tickets.viewerRef is not per-viewer-device",
        reference: Reference("Request tickets early", quote: "Never per session, never personal data."),
        fixes: [.unsafe],
        examples: [
            .canonical(replacing: "viewerRef: per-viewer-device", with: "viewerRef: ↓per-session", triggers: true,
                       note: "a new viewer_ref each session defeats ticket reuse", unsafeFixed: "viewerRef: per-viewer-device"),
            .canonical(replacing: "viewerRef: per-viewer-device", with: "viewerRef: ↓user-id", triggers: true,
                       note: "a user ID is personal data", unsafeFixed: "viewerRef: per-viewer-device"),
            .canonical(replacing: "viewerRef: per-viewer-device", with: "viewerRef: per-viewer-device", triggers: false,
                       note: "stable per viewer and device"),
        ],
        check: { doc, findings in
            guard let ref = doc.viewerRef, ref.value != .perViewerDevice else { return }
            let fix = findings.replacing(ref.span, key: "viewerRef", with: ViewerRef.perViewerDevice.rawValue)
            findings.add(at: ref.span,
                         ref.value == .userID
                            ? "tickets.viewerRef is user-id; a viewer_ref holds no personal data"
                            : "tickets.viewerRef is \(ref.value.rawValue); a viewer_ref is stable per viewer and device, never per session",
                         help: "write viewerRef: per-viewer-device", fix: fix)
        })
}
