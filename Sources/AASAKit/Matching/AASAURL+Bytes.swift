extension AASAURL {
    /// ``init(_:)`` of the string whose UTF-8 is `utf8` (valid UTF-8),
    /// without making that string: a list read as bytes parses its lines
    /// where they lie. `host`, when it holds this URL's host, becomes the
    /// URL's host instead of a new string (a list's URLs are mostly of one
    /// host), and is left holding this URL's host for the next call.
    public static func parse(
        utf8: UnsafeBufferPointer<UInt8>,
        sharingHost host: inout String?
    ) throws(AASAURLError)
        -> AASAURL
    {
        try URLByteParser.parse(utf8, original: { String(decoding: utf8, as: UTF8.self) }, host: &host)
    }
}
