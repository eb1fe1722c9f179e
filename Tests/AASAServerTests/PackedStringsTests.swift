import Testing

@testable import AASAServer

/// The app IDs `/status` reports come back exactly as the file listed them,
/// though a served file keeps them in one allocation.
@Suite("Packed strings")
struct PackedStringsTests {
    @Test(arguments: [
        [],
        [""],
        ["ABCDE12345.com.example.app"],
        ["a", "", "b", "", ""],
        // Non-ASCII, an embedded newline and NUL: no separator can be confused with content.
        ["é.ü.app", "line\nbreak", "nul\u{0}inside", "🙂"],
        // Lengths that need two and three LEB128 bytes.
        [
            String(repeating: "x", count: 127), String(repeating: "y", count: 128),
            String(repeating: "z", count: 20_000),
        ],
    ])
    func roundTrips(_ strings: [String]) {
        #expect(PackedStrings(strings).strings == strings)
    }

    /// The opaque tag is the digest's first 16 bytes in lowercase hex, zero-padded.
    @Test func hexIsTwoLowercaseDigitsPerByte() {
        #expect(ServedFile.hex([0x00, 0x0F, 0xA0, 0xFF, 0x5C]) == "000fa0ff5c")
        #expect(ServedFile.hex([]) == "")
    }

    /// A served file reports the app IDs and the ETag it was built with.
    @Test func aServedFileReportsItsAppIDsAndTag() {
        let body = Array(#"{"applinks":{"details":[]}}"#.utf8)
        let file = ServedFile.sample(
            body: body,
            appIDs: ["ABCDE12345.com.example.app", "ABCDE12345.com.example.app.beta"]
        )
        #expect(file.appIDs == ["ABCDE12345.com.example.app", "ABCDE12345.com.example.app.beta"])
        #expect(file.etag == "\"" + file.responses.identity.etag.opaque + "\"")
        #expect(file.etag.utf8.count == 34)
        let restamped = file.restamped(
            FileStamp(device: 1, inode: 2, size: body.count, modifiedNanoseconds: 0, changedNanoseconds: 0)
        )
        #expect(restamped !== file)
        #expect(restamped.appIDs == file.appIDs)
        #expect(restamped.etag == file.etag)
    }
}
