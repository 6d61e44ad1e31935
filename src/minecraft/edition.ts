// The two games a server may run: Java Edition and Bedrock Edition, which
// answer status requests over different protocols.

export type Edition = "java" | "bedrock";
