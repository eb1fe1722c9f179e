import Testing

@testable import AASAKit

/// The noncopyable view the record and the text renderer read an item
/// through is the item itself: laid out alike, and reading back its fields.
@Suite struct LinkTestItemInPlaceTests {
    @Test func laidOutAsTheItem() {
        #expect(MemoryLayout<LinkTestPlan.ItemInPlace>.size == MemoryLayout<LinkTestPlan.Item>.size)
        #expect(MemoryLayout<LinkTestPlan.ItemInPlace>.stride == MemoryLayout<LinkTestPlan.Item>.stride)
        #expect(MemoryLayout<LinkTestPlan.ItemInPlace>.alignment == MemoryLayout<LinkTestPlan.Item>.alignment)
    }

    @Test func readsTheItemsFields() {
        let items = LinkTestPlan.parseItems([
            LinkExpectations.Entry(url: "https://example.com/a?q=1#f", expectation: .matched),
            LinkExpectations.Entry(url: "not a url", expectation: .none),
            LinkExpectations.Entry(url: "http://example.org/b", expectation: .blocked),
        ])
        items.withUnsafeBufferPointer { buffer in
            for index in buffer.indices {
                let item = buffer.baseAddress! + index
                let seen = item.withItemInPlace { inPlace in
                    (inPlace.item.parsed, inPlace.item.entry.url, inPlace.item.entry.expectation, inPlace.item.isHTTP)
                }
                #expect(seen.0 == buffer[index].parsed)
                #expect(seen.1 == buffer[index].entry.url)
                #expect(seen.2 == buffer[index].entry.expectation)
                #expect(seen.3 == buffer[index].isHTTP)
            }
        }
        #expect(items[0].parsed?.query == "q=1")
        #expect(items[1].parsed == nil)
        #expect(items[2].isHTTP)
    }
}
