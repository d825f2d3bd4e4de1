// Framebuffer, rasterizer, PNG and terminal encoders.
