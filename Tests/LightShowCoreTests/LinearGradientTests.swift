import LightShowCore
import Testing

@Suite struct LinearGradientTests {
    /// Hand-computed by the rule of `LinearGradient.points`: (cos θ, sin θ) pushed to the unit square, end = that point, start = its negation,
    /// then ((x+1)/2, 1 − (y+1)/2).
    @Test(arguments: [
        (0.0, (0.0, 0.5), (1.0, 0.5)),      // left → right
        (45.0, (0.0, 1.0), (1.0, 0.0)),     // bottom-left → top-right
        (90.0, (0.5, 1.0), (0.5, 0.0)),     // bottom → top
        (180.0, (1.0, 0.5), (0.0, 0.5)),    // right → left
        (270.0, (0.5, 0.0), (0.5, 1.0)),    // top → bottom (the default)
        (315.0, (0.0, 0.0), (1.0, 1.0)),    // top-left → bottom-right
    ])
    func gradientPoints(angle: Double, start: (Double, Double), end: (Double, Double)) {
        let points = LinearGradient.points(angleDegrees: angle)
        #expect(abs(points.start.x - start.0) < 1e-9 && abs(points.start.y - start.1) < 1e-9, "start for \(angle)°: \(points.start)")
        #expect(abs(points.end.x - end.0) < 1e-9 && abs(points.end.y - end.1) < 1e-9, "end for \(angle)°: \(points.end)")
    }

    @Test func thirtyDegreesUsesTangentOnTheSquareEdge() {
        // |cos 30°| > |sin 30°|: x = 1, y = tan 30° = 0.57735 → end (1, 1 − 1.57735/2).
        let points = LinearGradient.points(angleDegrees: 30)
        #expect(abs(points.end.x - 1) < 1e-9)
        #expect(abs(points.end.y - (1 - (1 + 0.5773502691896257) / 2)) < 1e-9)
    }

    @Test func defaultRunsTopToBottomAndClamps() {
        let gradient = LinearGradient(from: .black, to: .white, angleDegrees: 270)
        #expect(gradient.t(x: 0, y: 0, width: 100, height: 50) < 1e-12)
        #expect(abs(gradient.t(x: 77, y: 25, width: 100, height: 50) - 0.5) < 1e-12)
        #expect(gradient.t(x: 0, y: 80, width: 100, height: 50) == 1)
        #expect(gradient.color(x: 10, y: 25, width: 100, height: 50) == RGBColor(red: 128, green: 128, blue: 128))
    }

    @Test func stretchesWithTheCanvas() {
        // 45° runs corner to corner whatever the canvas aspect.
        let gradient = LinearGradient(from: .black, to: .white, angleDegrees: 45)
        #expect(abs(gradient.t(x: 0, y: 400, width: 1600, height: 400) - 0) < 1e-12)
        #expect(abs(gradient.t(x: 1600, y: 0, width: 1600, height: 400) - 1) < 1e-12)
        #expect(abs(gradient.t(x: 800, y: 200, width: 1600, height: 400) - 0.5) < 1e-12)
    }

    @Test func compositingAtLevelMixesOverTheBackground() {
        let red = RGBColor(red: 255, green: 0, blue: 0)
        let bg = RGBColor(red: 0, green: 0, blue: 100)
        #expect(red.composited(over: bg, alpha: 0) == bg)
        #expect(red.composited(over: bg, alpha: 1) == red)
        #expect(red.composited(over: bg, alpha: 0.5) == RGBColor(red: 128, green: 0, blue: 50))
    }
}
