import Foundation

@testable import AASAServer

/// A served directory in a fresh temporary folder, removed on deinit.
final class TemporarySite: @unchecked Sendable {
    // @unchecked: the path is immutable; files are written by the test that owns it.
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    var path: String { root.path }

    /// Writes `<root>/<host>/<file>`, creating the host directory.
    func write(_ contents: String, host: String, file: String = "apple-app-site-association") throws {
        try write(Data(contents.utf8), host: host, file: file)
    }

    func write(_ data: Data, host: String, file: String = "apple-app-site-association") throws {
        let directory = root.appendingPathComponent(host)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try data.write(to: directory.appendingPathComponent(file))
    }

    func symlink(_ name: String, to destination: String) throws {
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent(name).path,
            withDestinationPath: destination
        )
    }

    func remove(_ relativePath: String) throws {
        try FileManager.default.removeItem(at: root.appendingPathComponent(relativePath))
    }

    /// A configuration serving this directory on ephemeral ports.
    func configuration(
        pollInterval: Duration? = nil,
        admin: Bool = false,
        accessLog: Bool = false,
        limits: ServerConfiguration.Limits = .init(),
        hosts: ServerConfiguration.Hosts = .init()
    ) -> ServerConfiguration {
        ServerConfiguration(
            http: .init(bind: "127.0.0.1", port: 0),
            admin: admin ? .init(bind: "127.0.0.1", port: 0) : nil,
            files: .init(directory: path, pollInterval: pollInterval, strict: false),
            hosts: hosts,
            limits: limits,
            log: .init(access: accessLog)
        )
    }
}

/// Small valid AASA files, each identifiable by its app ID.
enum SampleFile {
    static func aasa(app: String = "ABCDE12345.com.example.app", path: String = "/buy/*") -> String {
        """
        {"applinks":{"details":[{"appIDs":["\(app)"],"components":[{"/":"\(path)"}]}]}}
        """
    }

    static let assetLinks = """
        [{"relation":["delegate_permission/common.handle_all_urls"],
          "target":{"namespace":"android_app","package_name":"com.example.app",
          "sha256_cert_fingerprints":["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]}}]
        """

    /// Schema-invalid: `exclude` must be a boolean.
    static let invalid = """
        {"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/a","exclude":"yes"}]}]}}
        """
}
