import FuzzDriver
import LightShowTerminal

// The viewer's key decoder on any bytes a terminal (or something pretending to be one) sends.
FuzzDriver.main { bytes in
    _ = KeyDecoder.decode(Array(bytes))
}
