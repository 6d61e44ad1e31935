// The games a server may run: Minecraft's Java Edition and Bedrock Edition,
// and Hytale (issue 41), each answering status requests over its own protocols.

export type Edition = "java" | "bedrock" | "hytale";
