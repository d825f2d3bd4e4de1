import Testing
@testable import LightShowControl

@Suite struct JSONTests {
    @Test func writesCompactOrderedJSON() {
        let value: JSONValue = ["id": 1, "ok": true, "result": ["bass": 0.82, "title": "A \"b\"\n\u{1}", "list": [nil, false, -2.5]]]
        #expect(value.description == #"{"id":1,"ok":true,"result":{"bass":0.82,"title":"A \"b\"\n\u0001","list":[null,false,-2.5]}}"#)
        #expect(JSONValue.number(.nan).description == "null")
        #expect(JSONValue.number(1e300).description == "1e+300")
    }

    @Test func parsesWhatItWrites() throws {
        let value: JSONValue = ["a": [1, 2.25, "x\u{00e9}\u{1F600}"], "b": ["c": nil], "d": "tab\there"]
        #expect(try JSONParser.parse(Array(value.description.utf8)) == value)
    }

    @Test func parsesNumbersByTheGrammar() throws {
        #expect(try JSONParser.parse(Array("[0, -0.5, 10, 2E3, 1e-2, -12.25e+1]".utf8)) == [0, -0.5, 10, 2000, 0.01, -122.5])
    }

    @Test func parsesEscapesAndSurrogatePairs() throws {
        let parsed = try JSONParser.parse(Array(#" {"s": "\u00e9\ud83d\ude00\/\\\"" , "n": -1.5e2 } "#.utf8))
        #expect(parsed == ["s": "é😀/\\\"", "n": -150])
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\" 1}", "01", "1.", ".5", "-", "1e", "1e400", "\"abc", "tru", "{\"a\":1}x", "+1", "\"\u{1}\"", "[1 2]"])
    func rejectsMalformed(_ text: String) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(text.utf8)) }
    }

    /// A `\u` escape is exactly four hex digits: no sign, no fewer, nothing but hex, in either half of a pair.
    @Test(arguments: [#""\u+041""#, #""\u-041""#, #""\u 041""#, #""\u041""#, #""\u00g1""#, #""\ud83d\u+e00""#, #""\u0x41""#])
    func aUnicodeEscapeIsFourHexDigits(_ text: String) {
        #expect(throws: JSONParser.Failure(offset: text.utf8.count > 12 ? 9 : 3, atEnd: false, expected: "four hex digits")) {
            try JSONParser.parse(Array(text.utf8))
        }
    }

    @Test func hexDigitsOfEitherCaseDecode() throws {
        #expect(try JSONParser.parse(Array(#""\u0041\u00E9\u00e9\uD83D\uDE00""#.utf8)) == "Aéé😀")
    }

    @Test func limitsNesting() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(deep.utf8)) }
        let fine = String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
        #expect(throws: Never.self) { try JSONParser.parse(Array(fine.utf8)) }
    }

    /// `{"cmd":"status","cmd":"stop"}` must not run `stop`: a key given twice is refused wherever it is.
    @Test func duplicateKeysAreRefused() throws {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(#"{"cmd":"status","cmd":"stop"}"#.utf8)) }
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(#"{"a":{"b":1,"b":2}}"#.utf8)) }
        #expect(try JSONParser.parse(Array(#"{"a":{"b":1},"b":2}"#.utf8))["b"] == 2)
        guard case .failure(let invalid) = ControlRequest.parse(Array(#"{"id":4,"cmd":"status","cmd":"stop"}"#.utf8)) else {
            Issue.record("a duplicate cmd was accepted")
            return
        }
        #expect(invalid.message.contains(#"duplicate key ("cmd" appears twice)"#), "\(invalid.message)")
    }
}
