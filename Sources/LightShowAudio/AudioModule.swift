// Audio sources. Each reads on its own thread and hands SampleBlocks onward.
