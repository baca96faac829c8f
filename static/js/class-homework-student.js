/* The class homework on a student's phone (class-formats-student.js calls it). */
export function homeworkPart() {
  return { show() {} };
}
