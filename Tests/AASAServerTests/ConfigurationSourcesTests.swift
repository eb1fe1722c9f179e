import AASAKit
import Foundation
import Testing

@testable import AASAServer

/// `aasa serve`'s settings: a misspelt key, an unknown variable, a value of
/// the wrong type or out of range stops it with file/variable/flag, path,
/// rule and "did you mean"; valid layers stack flags > environment > file.
@Suite("Configuration sources")
struct ConfigurationSourcesTests {
    /// This test's configuration files, removed with it (a file per call
    /// left in the temporary directory was 28 files per run).
    private let scratch: TemporarySite

    init() throws {
        scratch = try TemporarySite()
    }

    /// Writes `json` to a new file of this test and returns its path.
    func configurationFile(_ json: String) throws -> String {
        let path = scratch.path + "/aasa-config-\(UUID()).json"
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The issues loading reports, or `[]` when it loads.
    static func issues(_ sources: ConfigurationSources) -> [ConfigurationIssue] {
        do {
            _ = try sources.load()
            return []
        } catch {
            return error.issues
        }
    }

    @Test func misspeltFileKeyNamesFilePathRuleAndSuggestion() throws {
        let path = try configurationFile(#"{"files": {"pollIntervall": 5}}"#)
        let issues = Self.issues(ConfigurationSources(file: path))
        let issue = try #require(issues.first)
        #expect(issues.count == 1)
        #expect(issue.source == .file(path))
        #expect(issue.path.description == "files.pollIntervall")
        #expect(issue.rule == .unknownKey)
        #expect(issue.suggestion == "pollInterval")
        #expect(issue.description.hasPrefix("\(path): files.pollIntervall: unknown key \"pollIntervall\""))
        #expect(issue.description.contains("did you mean \"pollInterval\"?"))
        #expect(issue.description.hasSuffix("[config.unknown-key]"))
    }

    @Test(arguments: [
        (#"{"htp": {}}"#, "htp", ConfigurationIssue.Rule.unknownKey),
        (#"{"http": {"port": "8080"}}"#, "http.port", .schema(keyword: "type")),
        (#"{"http": {"port": 65536}}"#, "http.port", .schema(keyword: "maximum")),
        (#"{"http": {"port": 80.5}}"#, "http.port", .schema(keyword: "type")),
        (#"{"admin": {"port": -1}}"#, "admin.port", .schema(keyword: "minimum")),
        (#"{"files": {"pollInterval": -1}}"#, "files.pollInterval", .schema(keyword: "minimum")),
        (#"{"files": {"strict": "yes"}}"#, "files.strict", .schema(keyword: "type")),
        (#"{"files": {"directory": ""}}"#, "files.directory", .schema(keyword: "minLength")),
        (#"{"limits": {"headerTimeout": 0}}"#, "limits.headerTimeout", .schema(keyword: "exclusiveMinimum")),
        (#"{"limits": {"idleTimeout": -5}}"#, "limits.idleTimeout", .schema(keyword: "exclusiveMinimum")),
        (#"{"limits": {"maxConnections": 0}}"#, "limits.maxConnections", .schema(keyword: "minimum")),
        (#"{"limits": {"maxHeaderBytes": 100}}"#, "limits.maxHeaderBytes", .schema(keyword: "minimum")),
        (#"{"log": {"level": "verbose"}}"#, "log.level", .schema(keyword: "enum")),
        (#"{"log": {"format": "xml"}}"#, "log.format", .schema(keyword: "enum")),
        (
            #"{"response": {"cacheControl": "max-age=1\r\nSet-Cookie: x"}}"#, "response.cacheControl",
            .schema(keyword: "not")
        ),
        (#"{"hosts": {"aliases": ["a.example"]}}"#, "hosts.aliases[0]", .schema(keyword: "pattern")),
        (#"{"hosts": {"aliases": ["a=b=c"]}}"#, "hosts.aliases[0]", .schema(keyword: "not")),
        (#"{"hosts": {"aliases": "a=b"}}"#, "hosts.aliases", .schema(keyword: "type")),
        (#"{"shutdown": {"gracePeriod": 1e9}}"#, "shutdown.gracePeriod", .schema(keyword: "maximum")),
        (#"{"tls": {"certificate": 1}}"#, "tls.certificate", .schema(keyword: "type")),
        (#"{"log": {"level": "info", "level": "debug"}}"#, "log.level", .duplicateKey),
        (#"[]"#, "(root)", .schema(keyword: "type")),
    ])
    func invalidFileValues(json: String, path: String, rule: ConfigurationIssue.Rule) throws {
        let file = try configurationFile(json)
        let issues = Self.issues(ConfigurationSources(file: file))
        #expect(issues.map(\.path.description) == [path])
        #expect(issues.map(\.rule) == [rule])
        #expect(issues.allSatisfy { $0.source == .file(file) })
    }

    @Test func unreadableOrMalformedFiles() throws {
        let missing = "/nonexistent/aasa.json"
        #expect(Self.issues(ConfigurationSources(file: missing)).map(\.rule) == [.unreadableFile])
        #expect(Self.issues(ConfigurationSources(file: NSTemporaryDirectory())).map(\.rule) == [.unreadableFile])
        let broken = try configurationFile("{\n  \"http\": {\"port\": 80,}\n}")
        let issue = try #require(Self.issues(ConfigurationSources(file: broken)).first)
        #expect(issue.rule == .invalidJSON)
        #expect(issue.description.contains("line 2"))
    }

    @Test func misspeltVariableGetsASuggestion() throws {
        let issue = try #require(
            Self.issues(ConfigurationSources(environment: ["AASA_FILES_POLL_INTERVALL": "3"])).first
        )
        #expect(issue.source == .environment("AASA_FILES_POLL_INTERVALL"))
        #expect(issue.rule == .unknownKey)
        #expect(issue.suggestion == "AASA_FILES_POLL_INTERVAL")
        #expect(issue.description.contains("did you mean AASA_FILES_POLL_INTERVAL?"))
        // A missing section and a guessed name are caught too.
        let guessed = Self.issues(ConfigurationSources(environment: ["AASA_POLL_INTERVAL": "3", "AASA_PORT": "8080"]))
        #expect(guessed.compactMap(\.suggestion) == ["AASA_FILES_POLL_INTERVAL", "AASA_HTTP_PORT"])
        let unknown = Self.issues(ConfigurationSources(environment: ["AASA_COLOUR": "blue"]))
        #expect(unknown.map(\.rule) == [.unknownKey])
    }

    @Test(arguments: [
        ("AASA_FILES_POLL_INTERVAL", "abc", ConfigurationIssue.Rule.type),
        ("AASA_FILES_POLL_INTERVAL", "0x10", .type),
        ("AASA_FILES_POLL_INTERVAL", "nan", .type),
        ("AASA_FILES_POLL_INTERVAL", "-1", .schema(keyword: "minimum")),
        ("AASA_LIMITS_HEADER_TIMEOUT", "-3", .schema(keyword: "exclusiveMinimum")),
        ("AASA_SHUTDOWN_GRACE_PERIOD", "", .type),
        ("AASA_HTTP_PORT", "70000", .schema(keyword: "maximum")),
        ("AASA_HTTP_PORT", "80 ", .type),
        ("AASA_ADMIN_PORT", "8081.5", .type),
        ("AASA_FILES_STRICT", "1", .type),
        ("AASA_FILES_STRICT", "TRUE", .type),
        ("AASA_LOG_LEVEL", "verbose", .schema(keyword: "enum")),
        ("AASA_LOG_FORMAT", "xml", .schema(keyword: "enum")),
        ("AASA_HOSTS_ALIASES", "a=b,,c=d", .schema(keyword: "pattern")),
        ("AASA_RESPONSE_CACHE_CONTROL", "no-cache\nX: y", .schema(keyword: "not")),
    ])
    func invalidVariableValues(name: String, value: String, rule: ConfigurationIssue.Rule) {
        let issues = Self.issues(ConfigurationSources(environment: [name: value]))
        #expect(issues.map(\.rule) == [rule])
        #expect(issues.map(\.source) == [.environment(name)])
    }

    @Test func invalidFlagValuesNameTheFlag() {
        let issues = Self.issues(
            ConfigurationSources(flags: [
                .init(flag: "--port", key: "http.port", value: .number(99_999)),
                .init(flag: "--poll-interval", key: "files.pollInterval", value: .number(-1)),
            ])
        )
        #expect(issues.map(\.source) == [.flag("--port"), .flag("--poll-interval")])
        #expect(issues.first?.description.hasPrefix("--port (http.port): ") == true)
    }

    /// Every problem of every layer at once, not one per start.
    @Test func reportsEveryLayerTogether() throws {
        let path = try configurationFile(#"{"log": {"levle": "info"}}"#)
        let issues = Self.issues(
            ConfigurationSources(
                file: path,
                environment: ["AASA_HTTP_PORT": "x"],
                flags: [.init(flag: "--port", key: "http.port", value: .number(-1))]
            )
        )
        #expect(issues.map(\.source) == [.file(path), .environment("AASA_HTTP_PORT"), .flag("--port")])
    }

    @Test func layersStackFlagsOverEnvironmentOverFile() throws {
        let path = try configurationFile(
            #"{"$schema": "../schema/aasa-config.schema.json", "http": {"port": 1000, "bind": "127.0.0.1"}, "files": {"pollInterval": 7, "strict": true}, "hosts": {"aliases": ["a.example=b.example"]}}"#
        )
        let configuration = try ConfigurationSources(
            file: path,
            environment: ["AASA_HTTP_PORT": "2000", "AASA_FILES_POLL_INTERVAL": "0.25", "AASA_LOG_FORMAT": "json"],
            flags: [.init(flag: "--port", key: "http.port", value: .number(3000))]
        ).load()
        #expect(configuration.http == .init(bind: "127.0.0.1", port: 3000))
        #expect(configuration.files.pollInterval == .milliseconds(250))
        #expect(configuration.files.strict)
        #expect(configuration.log.format == "json")
        #expect(configuration.hosts.aliases == ["a.example=b.example"])
        #expect(configuration.limits == ServerConfiguration.Limits())
    }

    @Test func nothingGivenIsTheDefaults() throws {
        let configuration = try ConfigurationSources(file: try configurationFile("{}")).load()
        let defaults = ServerConfiguration()
        #expect(configuration.http == defaults.http)
        #expect(configuration.admin == defaults.admin)
        #expect(configuration.files == defaults.files)
        #expect(configuration.limits == defaults.limits)
        #expect(configuration.log == defaults.log)
        #expect(configuration.shutdownGracePeriod == defaults.shutdownGracePeriod)
    }

    /// What the environment holds that is not a setting: the repository's
    /// own tooling variables and Kubernetes service links.
    @Test func variablesThatAreNotSettings() throws {
        let environment = [
            "AASA_SERVICE_HOST": "10.0.0.7", "AASA_SERVICE_PORT": "80", "AASA_SERVICE_PORT_HTTP": "80",
            "AASA_PORT": "tcp://10.0.0.7:80", "AASA_PORT_80_TCP": "tcp://10.0.0.7:80",
            "AASA_PORT_80_TCP_ADDR": "10.0.0.7", "AASA_PORT_80_TCP_PORT": "80", "AASA_PORT_80_TCP_PROTO": "tcp",
            "AASA_CI_TOOLS": "/tmp/tools", "AASA_TEST_EXECUTABLE_DIR": "/tmp", "PATH": "/usr/bin",
            "aasa_http_port": "x",
        ]
        #expect(Self.issues(ConfigurationSources(environment: environment)).isEmpty)
    }

    @Test func tlsNeedsBothHalvesFromAnyLayer() throws {
        let path = try configurationFile(#"{"tls": {"certificate": "/etc/aasa/cert.pem"}}"#)
        let issue = try #require(Self.issues(ConfigurationSources(file: path)).first)
        #expect(issue.rule == .incompleteTLS)
        #expect(issue.source == .combined)
        let paired = try ConfigurationSources(
            file: path,
            environment: ["AASA_TLS_KEY": "/etc/aasa/key.pem", "AASA_HTTPS_PORT": "8443"]
        ).load()
        #expect(paired.tls.isEnabled)
        #expect(paired.https?.port == 8443)
        let keyOnly = Self.issues(
            ConfigurationSources(flags: [.init(flag: "--tls-key", key: "tls.key", value: .string("k"))])
        )
        #expect(keyOnly.map(\.rule) == [.incompleteTLS])
    }

    @Test func httpsSettingsNeedTheHTTPSPort() throws {
        let noPort = Self.issues(
            ConfigurationSources(environment: [
                "AASA_TLS_CERTIFICATE": "c.pem", "AASA_TLS_KEY": "k.pem", "AASA_HTTPS_BIND": "127.0.0.1",
            ])
        )
        #expect(noPort.map(\.rule) == [.incompleteTLS, .incompleteTLS])
        #expect(noPort.map(\.path.description).sorted() == ["https.bind", "tls"])
        let withPort = try ConfigurationSources(flags: [
            .init(flag: "--tls-port", key: "https.port", value: .number(0)),
            .init(flag: "--tls-cert", key: "tls.certificate", value: .string("c.pem")),
            .init(flag: "--tls-key", key: "tls.key", value: .string("k.pem")),
        ]).load()
        #expect(withPort.https == .init(bind: "0.0.0.0", port: 0))
    }
}
