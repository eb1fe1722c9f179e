import Foundation

/// Gzip bodies made once with `gzip.compress(..., mtime=0)`: the test
/// target has no compressor of its own.
enum Gzip {
    /// 105 bytes of AASA JSON (`/shop/*` for ABCDE12345.com.example.app).
    static let smallAASA = decode(
        "H4sIAAAAAAACA6tWSiwoyMnMyy5WslKoVkpJLUnMzAGxo6tBMp4uYLaSo5Ozi6uhkbGJqV5yfq5eakVibkFOqh5QhVKsjoISUKwgPy81rwSqUx9IKekXZ+QX6Gsp1cYCYS0AuF4ABWkAAAA="
    )

    /// 200,093 bytes of AASA JSON (one 200,000-character path) in 315 bytes.
    static let oversizeAASA = decode(
        "H4sIAAAAAAACA+3LOw6CABAE0LtsbSD+GjoVC89gKIhSEPklUpgQ7i7EE9i/t81kMjtFOQxN3b3ekU3xrMaybpZ4n9b+lq8xTudLft3u9odj8ujbpPqU7dBUyTKIYhNLNfRd1Y2/tzSySEsAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA4G8xF8vNX/VbV8mdDQMA"
    )

    private static func decode(_ base64: String) -> [UInt8] {
        Array(Data(base64Encoded: base64) ?? Data())
    }
}
