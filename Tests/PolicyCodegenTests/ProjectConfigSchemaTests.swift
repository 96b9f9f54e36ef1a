import Foundation
import Testing
@testable import PolicyCheck
@testable import PolicyCodegen

/// The project file's JSON Schema, rendered by the schema generator from the checker's fields.
@Suite struct ProjectConfigSchemaTests {
    @Test func theSchemaDescribesEveryKey() throws {
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(SchemaGenerator.text(of: ProjectConfig.schema).utf8)) as? [String: Any])
        let properties = try #require(schema["properties"] as? [String: [String: Any]])
        #expect(Set(properties.keys) == Set(ProjectConfig.fields.map(\.key)))
        #expect(properties["version"]?["const"] as? Int == 1)
        let targets = try #require((properties["targets"]?["items"] as? [String: Any])?["enum"] as? [String])
        #expect(targets == Generator.Target.allCases.map(\.rawValue))
    }
}
