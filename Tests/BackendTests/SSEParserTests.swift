import Testing
@testable import Backend

@Suite struct SSEParserTests {
    @Test(arguments: [
        (["data: {\"a\":1}\n\n"], ["{\"a\":1}"]),
        (["data: one\n\ndata: two\n\n"], ["one", "two"]),
        (["da", "ta: spl", "it\n", "\n"], ["split"]),
        (["data: crlf\r\n\r\n"], ["crlf"]),
        ([":\n\n", "data: after ping\n\n"], ["after ping"]),
        (["event: x\ndata: a\ndata: b\n\n"], ["a\nb"]),
        (["data:nospace\n\n"], ["nospace"]),
        (["\n\n\n"], []),
    ])
    func splitsEvents(pieces: [String], expected: [String]) {
        var parser = SSEParser()
        var events: [String] = []
        for piece in pieces { events += parser.feed(Array(piece.utf8)) }
        #expect(events == expected)
        #expect(parser.finish() == (nil, false))
    }

    @Test func keepsUTF8SplitAcrossChunks() {
        let bytes = Array("data: é€😀\n\n".utf8)
        var parser = SSEParser()
        var events: [String] = []
        for byte in bytes { events += parser.feed([byte]) }
        #expect(events == ["é€😀"])
    }

    @Test func reportsAnEventCutBeforeItsBlankLine() {
        var parser = SSEParser()
        #expect(parser.feed(Array("data: whole\n".utf8)).isEmpty)
        #expect(parser.finish() == ("whole", false))

        var cut = SSEParser()
        #expect(cut.feed(Array("data: {\"content\":\"ha".utf8)).isEmpty)
        let (event, dangling) = cut.finish()
        #expect(event == "{\"content\":\"ha")
        #expect(dangling)
    }
}

private func == (lhs: (String?, Bool), rhs: (String?, Bool)) -> Bool {
    lhs.0 == rhs.0 && lhs.1 == rhs.1
}
