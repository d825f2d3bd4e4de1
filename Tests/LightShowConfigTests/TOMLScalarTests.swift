@testable import LightShowConfig
import Testing
import TOMLKit

/// TOMLScalar finds the node pointer TOMLKit keeps internal (by reflection): were it renamed, every value read would
/// fall back to TOMLKit's getters, which leak a copy per read, and nothing else would fail.
@Suite struct TOMLScalarTests {
    @Test func everyScalarIsReadThroughItsNode() throws {
        let table = try TOMLTable(string: "count = 42\nratio = 2.5\non = true\nname = \"lights\"\n")
        for key in ["count", "ratio", "on", "name"] {
            let value = try #require(table[key])
            #expect(TOMLScalar(value).readsTheNode, "\(key): TOMLKit's tomlValuePointer is not found by Mirror")
        }
        #expect(TOMLScalar(try #require(table["count"])).int == 42)
        #expect(TOMLScalar(try #require(table["ratio"])).double == 2.5)
        #expect(TOMLScalar(try #require(table["on"])).bool == true)
        #expect(TOMLScalar(try #require(table["name"])).string == "lights")
        // A value of another type reads as nil, not as a converted one.
        #expect(TOMLScalar(try #require(table["name"])).int == nil)
    }
}
