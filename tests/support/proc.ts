import fs from "node:fs";

export interface ThreadNice {
  tid: number;
  nice: number;
}

/**
 * The nice value of each thread of a process (field 19 of /proc/<pid>/task/<tid>/stat). A thread
 * can end between listing the directory and reading its file (the server's helper threads and
 * finished export workers come and go): such a thread is left out, it no longer exists.
 */
export function threadNiceness(pid: number): ThreadNice[] {
  const threads: ThreadNice[] = [];
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ESRCH") continue;
      throw error;
    }
    threads.push({ tid: Number(tid), nice: Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]) });
  }
  return threads;
}
