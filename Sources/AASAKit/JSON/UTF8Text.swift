/// Strict UTF-8 decoding for every platform AASAKit builds for.
///
/// The standard library's `String(validating:as:)` does this, but only from
/// macOS 15 / iOS 18: AASAKit is linked by iOS apps' test targets down to
/// iOS 16 (see `Package.swift`), where calling it does not compile. Newer
/// systems (and Linux, which has no availability floor) take the standard
/// library's path; older ones validate with the scalar parser that has been
/// in the standard library since Swift 5.
enum UTF8Text {
    /// The text of `bytes`, or nil when they are not well-formed UTF-8
    /// (an invalid or truncated sequence, an overlong form, a surrogate).
    static func decode(_ bytes: some Collection<UInt8>) -> String? {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            return String(validating: bytes, as: UTF8.self)
        }
        return decodeWithScalarParser(bytes)
    }

    /// The path taken before macOS 15 / iOS 18; internal so tests run it on
    /// any platform.
    static func decodeWithScalarParser(_ bytes: some Collection<UInt8>) -> String? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .emptyInput: return String(decoding: bytes, as: UTF8.self)
            case .error: return nil
            }
        }
    }
}
