; benchmark generated from python API
(set-info :status unknown)
(declare-fun n () Int)
(assert
 (let ((?x107778 (ite (= 0 (+ n 2)) 0 (- 2 (mod (+ n 2) 2)))))
(let (($x239404 (= ?x107778 (+ (ite (= 0 n) 0 (- 2 (mod n 2))) 0))))
(let (($x162949 (>= n 1)))
(and $x162949 (or (and (distinct true true) true) (and true (not $x239404))))))))
(check-sat)
