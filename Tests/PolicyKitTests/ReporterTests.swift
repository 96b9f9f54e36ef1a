import Testing
@testable import PolicyKit
