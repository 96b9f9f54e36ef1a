import PolicySource

extension Rule {
    static let yamlUnsupported = Rule(
        .yamlUnsupported, .error,
        summary: "an alias, anchor, tag, merge key, second document or non-scalar key",
        reference: nil,
        examples: [
            .canonical([("maxRetries: 3", "maxRetries: ↓&retries 3"), ("maxRetries: 5", "maxRetries: *retries")],
                       triggers: true, note: "an anchor and its alias: one finding for the file, at the first"),
            .canonical(replacing: "timeout: 8s", with: "timeout: ↓!!str 8s", triggers: true,
                       note: "a tag; the key a value stands under already gives its type"),
            .canonical(replacing: "  retryAfter:\n    honor: true\n", with: "  retryAfter:\n    ↓<<: {honor: true}\n",
                       triggers: true, note: "a merge key", alsoFinds: [.missingKey],
                       unsafeFixed: "  retryAfter:\n    <<: {honor: true}\n    honor: true\n"),
            .canonical(replacing: "  viewerRef: per-viewer-device\n", with: "  viewerRef: per-viewer-device\n↓---\nversion: 1\n",
                       triggers: true, note: "a second document"),
            .canonical(replacing: "description:", with: "↓[a, b]: 1\ndescription:", triggers: true,
                       note: "a list as a key"),
            .canonical(replacing: "description: Ticket", with: "description: The &first *second Ticket", triggers: false,
                       note: "'&' and '*' inside a text are just characters"),
            .canonical(replacing: "viewerRef: per-viewer-device\n", with: "viewerRef: per-viewer-device\n...\n",
                       triggers: false, note: "an explicit end of the one document"),
        ])
}
