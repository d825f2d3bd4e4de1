// FFTW spectrum → band energies → levels. See BandAnalyzer.
