import { projectCreateJob, timerStopOnReplyJob } from "@mw/shared/timetracking";
import { handle } from "../../runtime/processor.ts";
import { projectCreate, timerStopOnReply } from "./timetracking.ts";

export const timeTrackingHandlers = [handle(timerStopOnReplyJob, timerStopOnReply), handle(projectCreateJob, projectCreate)];
