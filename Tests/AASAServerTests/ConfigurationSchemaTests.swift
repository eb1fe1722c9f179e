import AASAKit
import Configuration
import Foundation
import Synchronization
import Testing

@testable import AASAServer

/// The configuration schema is the one list of settings: the reader, the
/// environment variable names, the shipped files and the documentation
/// must all agree with it.
@Suite("Configuration schema")
struct ConfigurationSchemaTests {
    static let repository = URL(filePath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func repositoryCopyIsIdenticalToTheBundledResource() throws {
        let bundled = try Data(
            contentsOf: Self.repository.appending(path: "Sources/AASAServer/Configuration/aasa-config.schema.json")
        )
        let published = try Data(contentsOf: Self.repository.appending(path: "schema/aasa-config.schema.json"))
        #expect(bundled == published)
        #expect(!ConfigurationSchema.bundled.keys.isEmpty)
    }

    /// Records every key the reader is asked for, with the type asked.
    final class KeyRecorder: AccessReporter {
        let accessed = Mutex<[String: ConfigType]>([:])
        func report(_ event: AccessEvent) {
            accessed.withLock { $0[event.metadata.key.components.joined(separator: ".")] = event.metadata.valueType }
        }
    }

    /// Adding a key to the reader without the schema (or the other way
    /// round) would make it unsettable, or settable and ignored.
    @Test func readerReadsExactlyTheSchemaKeys() {
        let recorder = KeyRecorder()
        _ = ServerConfiguration(reader: ConfigReader(provider: InMemoryProvider(values: [:]), accessReporter: recorder))
        let read = recorder.accessed.withLock { $0 }
        var declared: [String: ConfigType] = [:]
        for key in ConfigurationSchema.bundled.keys {
            declared[key.description] =
                switch key.type {
                case .string: .string
                case .integer: .int
                case .number: .double
                case .boolean: .bool
                case .stringArray: .stringArray
                }
        }
        #expect(read == declared)
    }

    @Test(arguments: [
        ("http.port", "AASA_HTTP_PORT"),
        ("files.pollInterval", "AASA_FILES_POLL_INTERVAL"),
        ("limits.maxHeaderBytes", "AASA_LIMITS_MAX_HEADER_BYTES"),
        ("response.cacheControl", "AASA_RESPONSE_CACHE_CONTROL"),
        ("shutdown.gracePeriod", "AASA_SHUTDOWN_GRACE_PERIOD"),
        ("hosts.default", "AASA_HOSTS_DEFAULT"),
    ])
    func environmentNames(key: String, variable: String) throws {
        let found = try #require(ConfigurationSchema.bundled.keys.first { $0.description == key })
        #expect(found.environmentName == variable)
    }

    /// Every setting is documented in config/README.md with its variable.
    @Test func readmeDocumentsEverySetting() throws {
        let readme = try String(contentsOf: Self.repository.appending(path: "config/README.md"), encoding: .utf8)
        for key in ConfigurationSchema.bundled.keys {
            #expect(readme.contains("`\(key)` ("), "\(key)")
            #expect(readme.contains("`\(key.environmentName)`"), "\(key.environmentName)")
        }
    }

    /// The shipped configurations load as they are.
    @Test(arguments: ["config/aasa.local.json", "config/aasa.production.json"])
    func shippedFilesAreValid(file: String) throws {
        let path = Self.repository.appending(path: file).path
        let configuration = try ConfigurationSources(file: path).load()
        #expect(configuration.files.directory == (file.hasSuffix("local.json") ? "aasa" : "/srv/aasa"))
    }

    @Test func everySettingHasAType() throws {
        let schema = try ConfigurationSchema(
            bytes: Array(#"{"properties": {"a": {"properties": {"b": {"type": "integer"}}}}}"#.utf8)
        )
        #expect(schema.keys == [ConfigurationKey(components: ["a", "b"], type: .integer)])
        #expect(throws: ConfigurationSchema.SchemaShapeError.self) {
            try ConfigurationSchema(bytes: Array(#"{"properties": {"a": {"type": "object"}}}"#.utf8))
        }
    }
}
