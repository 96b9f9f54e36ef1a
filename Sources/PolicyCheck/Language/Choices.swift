/// The language's closed sets of words, as types: the decoder checks a value against `allCases`
/// (by `rawValue`, as written) and everything after it reads the case.

/// Who waits for a call: a viewer (`interactive`) or a sync job (`background`).
public enum ProfileKind: String, Sendable, Hashable, CaseIterable {
    case interactive, background
}

/// How the wait between retries grows (SPEC §7.1 defines each).
public enum Backoff: String, Sendable, Hashable, CaseIterable {
    case fullJitter = "full-jitter"
    case equalJitter = "equal-jitter"
    case exponential
    case constant
}

/// What a ticket may be reused for: a ticket is reused only when every part of the key matches.
public enum ReuseKeyPart: String, Sendable, Hashable, CaseIterable {
    case viewer, device, episode, intent
}

/// How `viewer_ref` is made.
public enum ViewerRef: String, Sendable, Hashable, CaseIterable {
    case perViewerDevice = "per-viewer-device"
    case perSession = "per-session"
    case userID = "user-id"
}

extension Located where T: RawRepresentable, T.RawValue == String {
    /// The choice as written.
    public var raw: Located<String> { Located<String>(value.rawValue, span) }
}
